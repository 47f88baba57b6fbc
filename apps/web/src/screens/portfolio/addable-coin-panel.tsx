import { type AddableCoin, addCoin, DEFAULT_COIN_SETTINGS, type Exchange } from '@gridbot/contracts';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useApiMutation } from '../../api/use-api';
import { useFormat } from '../../format/use-format';
import { showToast } from '../../shell/toast-store';
import { Button } from '../../ui/button';
import { Usdt } from '../../ui/money';
import { KeyValue } from '../../ui/stat';
import { ActionProblem } from './action-problem';
import { BacktestPanel, type BacktestSettings } from './backtest-panel';

const { dry: _dry, ...defaults } = DEFAULT_COIN_SETTINGS;

/** Where a coin in the portfolio is set up and watched: its settings and its page. */
const CoinLinks = ({ coin, exchange }: { coin: string; exchange: Exchange }) => {
  const { t } = useTranslation();
  return (
    <div className="actions">
      <Link to="/portfolio/edit" search={{ coin, exchange }} className="button button--primary button--small">
        {t('token.editSettings')}
      </Link>
      <Link
        to="/portfolio/show"
        search={{ coin, exchange }}
        className="button button--secondary button--small"
      >
        {t('addToken.openCoin')}
      </Link>
    </div>
  );
};

/**
 * The opened market of the add-coin list (docs/grid.md#adding-a-coin): its minimum order, adding it
 * (paused, default settings) with any refusal in place, then the way to its settings or its page;
 * and a backtest of the default settings before or after adding.
 */
export const AddableCoinPanel = ({
  market,
  exchange,
  id,
}: {
  market: AddableCoin;
  /** The exchange account the list is of: the coin is added there. */
  exchange: Exchange;
  id: string;
}) => {
  const { t } = useTranslation();
  const format = useFormat();
  const add = useApiMutation(addCoin, {
    onSuccess: ({ coin }) => showToast(t('addToken.added', { coin: coin.coin }), 'success'),
  });
  const settings: BacktestSettings = { coin: market.coin, exchange, ...defaults };
  const added = add.data?.coin.coin === market.coin && add.data.coin.exchange === exchange;
  return (
    <div className="market-panel" id={id}>
      <KeyValue
        label={t('addToken.minOrder')}
        value={market.minOrderUsdt ? <Usdt value={market.minOrderUsdt} exact /> : t('token.notSet')}
      />
      <KeyValue
        label={t('addToken.volume24h')}
        value={market.quoteVolume24h ? `${format.compact(market.quoteVolume24h)} USDT` : t('token.notSet')}
      />
      {added ? (
        <div className="market-panel__done" role="status">
          <p className="market-panel__title">{t('addToken.addedTitle', { coin: market.coin })}</p>
          <p className="muted">{t('addToken.addedText')}</p>
          <CoinLinks coin={market.coin} exchange={exchange} />
        </div>
      ) : market.inPortfolio ? (
        <CoinLinks coin={market.coin} exchange={exchange} />
      ) : (
        <>
          <p className="muted market-panel__text">
            {t('addToken.defaults', {
              orderSize: format.usdtExact(defaults.orderSize),
              stepPct: format.amount(defaults.stepPct),
              stepIncreasePct: format.amount(defaults.stepIncreasePct),
              count: defaults.maxTrades,
            })}
          </p>
          {add.isError && !add.isPending ? (
            <ActionProblem error={add.error} coin={market.coin} exchange={exchange} />
          ) : null}
          <Button
            block
            busy={add.isPending}
            onClick={() => add.mutate({ query: { data_send: market.coin, exchange } })}
          >
            {t('addToken.addTo', { coin: market.coin })}
          </Button>
        </>
      )}
      <BacktestPanel
        coin={market.coin}
        settings={settings}
        framed={false}
        title={added || market.inPortfolio ? undefined : t('addToken.backtestDefaults')}
      />
    </div>
  );
};
