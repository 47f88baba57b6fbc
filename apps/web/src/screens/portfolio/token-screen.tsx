import { getCoin, type ResponseOf, setCoinStatus } from '@gridbot/contracts';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { useActionError } from '../../api/use-action-error';
import { useApiMutation, useApiQuery } from '../../api/use-api';
import { signOf } from '../../format/decimal';
import { EXCHANGE_NAMES } from '../../format/exchange-name';
import { useMarketFormat } from '../../format/market-format';
import { useFormat } from '../../format/use-format';
import { showToast } from '../../shell/toast-store';
import { confirmAction } from '../../telegram/confirm';
import { Usdt } from '../../ui/money';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { Segmented } from '../../ui/segmented';
import { KeyValue, Stat, Stats } from '../../ui/stat';
import { EmptyState, Skeleton } from '../../ui/states';
import { CoinPriceChart } from '../shared/coin-chart';
import { CoinStateBadge } from '../shared/coin-state-badge';
import { CoinStatusNote } from '../shared/coin-status-note';
import { PlanOnBookNote } from '../shared/orders-on-book';
import { CoinExchangeChoice } from './coin-exchange-choice';
import { CoinHistory } from './coin-history';
import { CoinReturn } from './coin-return';
import { CoinDealControls } from './deal-actions';
import { LadderView } from './ladder-view';

const route = getRouteApi('/user/portfolio/show');

type CoinCard = ResponseOf<typeof getCoin>;
type Mode = 'active' | 'dry' | 'paused';

const modeOf = (coin: CoinCard['coin']): Mode => {
  if (!coin.running) return 'paused';
  return coin.settings.dry ? 'dry' : 'active';
};

const ModeSwitch = ({ card }: { card: CoinCard }) => {
  const { t } = useTranslation();
  const errorText = useActionError();
  const change = useApiMutation(setCoinStatus, {
    onError: (error) => showToast(errorText(error, 'changeStatus'), 'error'),
  });
  const current =
    change.isPending && change.variables ? (change.variables.query.status as Mode) : modeOf(card.coin);
  // Pausing stops the coin's trading: the user confirms first, as for pausing every coin.
  const select = async (status: Mode) => {
    if (status === 'paused') {
      const ok = await confirmAction({
        title: t('panel.confirmPauseTitle'),
        message: t('panel.confirmPause'),
        confirmText: t('token.modes.paused'),
        destructive: true,
      });
      if (!ok) return;
    }
    change.mutate({ query: { coin_name: card.coin.coin, exchange: card.coin.exchange, status } });
  };
  return (
    <Card title={t('token.mode')}>
      <Segmented
        label={t('token.mode')}
        value={current}
        onChange={(status) => void select(status)}
        options={(['active', 'dry', 'paused'] as const).map((value) => ({
          value,
          label: t(`token.modes.${value}`),
        }))}
      />
    </Card>
  );
};

const CoinDetails = ({ card }: { card: CoinCard }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const { coin } = card;
  const { stats, settings } = coin;
  const market = useMarketFormat(coin);
  return (
    <>
      <div className="hero">
        <div className="hero__label">
          {t('token.lastPrice')} · {coin.symbol} ·{' '}
          <span data-exchange={coin.exchange}>{EXCHANGE_NAMES[coin.exchange]}</span>
        </div>
        <div className="hero__value">{coin.lastPrice ? market.price(coin.lastPrice) : t('token.notSet')}</div>
        <div className="hero__row">
          <span>
            {t('token.unrealized')}
            <b>
              <Usdt value={stats.unrealizedPnl} />
            </b>
          </span>
          <span>
            {t('token.realized')}
            <b>
              <Usdt value={stats.realizedPnl} />
            </b>
          </span>
        </div>
      </div>
      <CoinStatusNote coin={coin} />
      <PlanOnBookNote book={coin.book} ladder={card.ladder} />
      <CoinPriceChart coin={coin.coin} exchange={coin.exchange} />
      <ModeSwitch card={card} />
      <SectionTitle>{t('token.statistics')}</SectionTitle>
      <Card>
        <Stats>
          <Stat label={t('token.openDeals')} value={`${stats.openDeals} / ${settings.maxTrades}`} />
          <Stat
            label={t('token.avgPrice')}
            value={stats.avgPrice ? market.price(stats.avgPrice) : t('token.notSet')}
          />
          <Stat label={t('token.invested')} value={<Usdt value={stats.invested} />} />
          <Stat
            label={t('token.unrealized')}
            value={<Usdt value={stats.unrealizedPnl} />}
            tone={signOf(stats.unrealizedPnl)}
          />
          <Stat label={t('token.profitable')} value={`${stats.profitableTrades} / ${stats.closedTrades}`} />
          <Stat
            label={t('token.startDate')}
            value={stats.startDate ? format.date(stats.startDate) : t('token.notSet')}
          />
          <Stat label={t('token.feesPaid')} value={<Usdt value={stats.tradeFeesPaid} />} />
          <Stat
            label={t('token.realized')}
            value={<Usdt value={stats.realizedPnl} />}
            tone={signOf(stats.realizedPnl)}
          />
        </Stats>
      </Card>
      <CoinReturn coin={coin} />
      <SectionTitle
        action={
          <Link to="/portfolio/edit" search={{ coin: coin.coin, exchange: coin.exchange }}>
            {t('token.editSettings')}
          </Link>
        }
      >
        {t('token.settings')}
      </SectionTitle>
      <Card>
        <KeyValue label={t('token.orderSize')} value={<Usdt value={settings.orderSize} exact />} />
        <KeyValue label={t('token.step')} value={format.pct(settings.stepPct)} />
        <KeyValue label={t('token.stepIncrease')} value={format.pct(settings.stepIncreasePct)} />
        <KeyValue label={t('token.maxTrades')} value={settings.maxTrades} />
        <KeyValue label={t('token.dry')} value={settings.dry ? t('common.on') : t('common.off')} />
      </Card>
      <LadderView ladder={card.ladder} book={coin.book} />
      <CoinDealControls card={card} />
      <CoinHistory coin={coin} />
    </>
  );
};

/** How often the open coin page refreshes its figures (not in the background). */
export const COIN_REFRESH_MS = 10_000;

/** One coin (`?coin=BTC&exchange=bybit`): statistics, mode, settings and its grid. */
export const TokenScreen = () => {
  const { t } = useTranslation();
  const { coin, exchange } = route.useSearch();
  const query = useApiQuery(
    getCoin,
    { params: { coin: coin ?? '' }, query: { period: 'day', ...(exchange ? { exchange } : {}) } },
    // The bot trades while the page is open: its figures follow, like the panel's.
    { enabled: Boolean(coin), refetchInterval: COIN_REFRESH_MS },
  );
  return (
    <Screen
      back
      title={coin ?? t('nav.portfolio')}
      action={
        query.data ? <CoinStateBadge state={query.data.coin.state} book={query.data.coin.book} /> : undefined
      }
    >
      {coin && isApiError(query.error) && query.error.code === 'EXCHANGE_REQUIRED' ? (
        <CoinExchangeChoice coin={coin} to="/portfolio/show" />
      ) : coin ? (
        <QueryView query={query} loading={<Skeleton height={150} />} title={t('token.statistics')}>
          {(card) => <CoinDetails card={card} />}
        </QueryView>
      ) : (
        <Card>
          <EmptyState
            title={t('token.chooseCoin')}
            action={
              <Link to="/portfolio" className="button button--secondary button--small">
                {t('nav.portfolio')}
              </Link>
            }
          />
        </Card>
      )}
    </Screen>
  );
};
