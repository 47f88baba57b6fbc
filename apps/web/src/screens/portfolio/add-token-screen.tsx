import { type AddableCoin, type Exchange, listAddableCoins } from '@gridbot/contracts';
import { Link } from '@tanstack/react-router';
import { useDeferredValue, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { signOf } from '../../format/decimal';
import { EXCHANGE_NAMES } from '../../format/exchange-name';
import { useFormat } from '../../format/use-format';
import { Field } from '../../ui/field';
import { CoinAvatar } from '../../ui/list-row';
import { Notice } from '../../ui/notice';
import { QueryView } from '../../ui/query-view';
import { Card, Screen } from '../../ui/screen';
import { Segmented } from '../../ui/segmented';
import { EmptyState } from '../../ui/states';
import { AddableCoinPanel } from './addable-coin-panel';

/** One market as an exchange's market list shows it: icon, pair and volume; price over the 24 h change. */
const MarketRow = ({
  market,
  exchange,
  open,
  onToggle,
}: {
  market: AddableCoin;
  exchange: Exchange;
  open: boolean;
  onToggle: () => void;
}) => {
  const { t } = useTranslation();
  const format = useFormat();
  const panelId = useId();
  const change = market.change24hPct;
  const tone = change ? signOf(change) : 'zero';
  return (
    <div className={`market${open ? ' market--open' : ''}`} data-coin={market.coin}>
      <button
        type="button"
        className="row market__row"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={onToggle}
      >
        <CoinAvatar coin={market.coin} />
        <span className="row__body">
          <span className="market__pair">
            <span className="row__title">{market.coin}</span>
            <span className="market__quote">/{market.symbol.split('/')[1] ?? 'USDT'}</span>
          </span>
          <span className="row__subtitle market__volume">
            {market.quoteVolume24h
              ? t('addToken.volume', { amount: format.compact(market.quoteVolume24h) })
              : null}
            {market.inPortfolio ? <span className="market__owned">{t('addToken.inPortfolio')}</span> : null}
          </span>
        </span>
        <span className="market__quote-col">
          <span className="market__price">
            {market.lastPrice ? format.price(market.lastPrice, market.priceTick) : '—'}
          </span>
          <span className={`market__change market__change--${tone}`}>
            <span className="visually-hidden">{t('addToken.change24h')} </span>
            {change ? format.pct(change, { plus: true }) : '—'}
          </span>
        </span>
      </button>
      {open ? <AddableCoinPanel market={market} exchange={exchange} id={panelId} /> : null}
    </div>
  );
};

/**
 * Add-token: the chosen exchange account's USDT spot markets, most traded first, with a search.
 * With keys on several exchanges the user picks the exchange first (the keys saved first by default).
 */
export const AddTokenScreen = () => {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<Exchange | null>(null);
  const [search, setSearch] = useState('');
  const [opened, setOpened] = useState<string | null>(null);
  const term = useDeferredValue(
    search
      .trim()
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .slice(0, 15),
  );
  const query = useApiQuery(listAddableCoins, {
    query: { ...(term ? { search: term } : {}), ...(picked ? { exchange: picked } : {}) },
  });
  const accounts = query.data?.accounts ?? [];
  return (
    <Screen back title={t('addToken.title')}>
      {accounts.length > 1 ? (
        <Segmented
          label={t('addToken.chooseExchange')}
          value={picked ?? query.data?.exchange ?? accounts[0] ?? 'binance'}
          onChange={(next) => {
            setPicked(next);
            setOpened(null);
          }}
          options={accounts.map((value) => ({ value, label: EXCHANGE_NAMES[value] }))}
        />
      ) : null}
      <Field
        label={t('common.search')}
        placeholder={t('addToken.searchPlaceholder')}
        value={search}
        onChange={setSearch}
        autoCapitalize="characters"
        autoComplete="off"
        inputMode="search"
      />
      <QueryView query={query} title={t('addToken.title')}>
        {(list) => (
          <>
            <p className="muted market-list__info">
              {t('addToken.exchange', { name: EXCHANGE_NAMES[list.exchange] })} ·{' '}
              {t('addToken.limit', { used: list.coinsUsed, limit: list.coinsLimit })}
            </p>
            {list.keysConnected ? null : (
              <Notice>
                <p style={{ margin: 0 }}>{t('addToken.keysHint')}</p>
                <Link to="/profile/api-key" className="notice__link">
                  {t('addToken.keysLink')}
                </Link>
              </Notice>
            )}
            {list.coinsUsed >= list.coinsLimit ? (
              <Notice tone="warning">{t('addToken.limitReached', { count: list.coinsLimit })}</Notice>
            ) : null}
            {list.coins.length === 0 ? (
              <Card>
                <EmptyState title={term ? t('addToken.noMatches', { query: term }) : t('common.empty')} />
              </Card>
            ) : (
              <Card flush>
                <div className="market-list__head" aria-hidden="true">
                  <span>{t('addToken.columns.name')}</span>
                  <span>{t('addToken.columns.price')}</span>
                </div>
                {list.coins.map((market) => (
                  <MarketRow
                    key={market.coin}
                    market={market}
                    exchange={list.exchange}
                    open={opened === market.coin}
                    onToggle={() => setOpened((current) => (current === market.coin ? null : market.coin))}
                  />
                ))}
              </Card>
            )}
          </>
        )}
      </QueryView>
    </Screen>
  );
};
