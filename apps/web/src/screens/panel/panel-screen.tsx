import { getPanel, type ResponseOf } from '@gridbot/contracts';
import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { onSeveralExchanges } from '../../format/exchange-name';
import { useFormat } from '../../format/use-format';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { useSessionUser } from '../../session/use-session-user';
import { AfterFirstPaint } from '../../ui/after-first-paint';
import { ExchangeTag } from '../../ui/exchange-tag';
import { ChartIcon } from '../../ui/icons';
import { CoinAvatar, IconAvatar, LinkRow } from '../../ui/list-row';
import { Pct, Usdt } from '../../ui/money';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { EmptyState, Skeleton } from '../../ui/states';
import { PanelPriceChart } from '../shared/coin-chart';
import { CoinStateBadge } from '../shared/coin-state-badge';
import { CoinStatusNote } from '../shared/coin-status-note';
import { isOffBook, PlanOnBookNote } from '../shared/orders-on-book';
import { AnnualizedPct, ReturnPct, Runtime } from '../shared/run-return';
import { CoinProfit } from './coin-profit';
import { CoinRating } from './coin-rating';
import { ProfitChart } from './profit-chart';
import { PANEL_REFRESH_MS } from './refresh';
import { TradingControls } from './trading-controls';

type Panel = ResponseOf<typeof getPanel>;

const PnlHero = ({ panel }: { panel: Panel }) => {
  const { t } = useTranslation();
  return (
    <div className="hero">
      <div className="hero__label">{t('panel.pnlToday')}</div>
      <div className="hero__value">
        <Usdt value={panel.pnl.today} />{' '}
        <span className="hero__pct">{<Pct value={panel.pnl.todayPct} signed />}</span>
      </div>
      <div className="hero__row">
        <span>
          {t('panel.pnlTotal')}
          <b>
            <Usdt value={panel.pnl.total} />
          </b>
        </span>
        <span>
          {t('panel.unrealized')}
          <b>
            <Usdt value={panel.pnl.unrealized} />
          </b>
        </span>
        <span>
          {t('panel.openDeals')}
          <b>{panel.openDeals}</b>
        </span>
      </div>
      {/* Beside the PnL, as exchanges' bots show it (docs/pnl.md#runtime-and-return). */}
      <div className="hero__row hero__row--run">
        <span>
          {t('run.returnPct')}
          <b>
            <ReturnPct run={panel.pnl.run} />
          </b>
        </span>
        <span>
          {t('run.annualized')}
          <b>
            <AnnualizedPct run={panel.pnl.run} />
          </b>
        </span>
        <span>
          {t('run.runtime')}
          <b>
            <Runtime run={panel.pnl.run} />
          </b>
        </span>
      </div>
    </div>
  );
};

const LicenseAndFees = ({ panel }: { panel: Panel }) => {
  const { t } = useTranslation();
  const format = useFormat();
  return (
    <div className="grid-2">
      <Link to="/profile" className="card" style={{ color: 'inherit' }}>
        <div className="mini-card__label">{t('panel.license')}</div>
        <div className="mini-card__value">{panel.license.level}</div>
        <div className={`mini-card__note${panel.license.expired ? ' negative' : ''}`}>
          {panel.license.expired
            ? t('panel.expired')
            : t('panel.activeUntil', { date: format.date(panel.license.activeUntil) })}
        </div>
      </Link>
      <Link to="/wallet" className="card" style={{ color: 'inherit' }}>
        <div className="mini-card__label">{t('panel.feeBalance')}</div>
        <div className="mini-card__value">
          <Usdt value={panel.feeBalance} signed={panel.feeBalance.startsWith('-')} exact />
        </div>
        <div className="mini-card__note">
          {t('panel.exchange')}: {panel.exchange.connected ? t('panel.connected') : t('panel.notConnected')}
        </div>
      </Link>
    </div>
  );
};

const Coins = ({ panel }: { panel: Panel }) => {
  const { t } = useTranslation();
  if (panel.coins.length === 0) {
    return (
      <Card>
        <EmptyState
          title={t('panel.noCoins')}
          action={
            <Link to="/portfolio/add" className="button button--secondary button--small">
              {t('panel.addCoins')}
            </Link>
          }
        />
      </Card>
    );
  }
  // Coins on several exchanges say which (docs/grid.md#coins-on-several-exchanges).
  const severalExchanges = onSeveralExchanges(panel.coins);
  return (
    <Card flush>
      {panel.coins.map((coin) => (
        <LinkRow
          key={coin.coinUserId}
          link={{ to: '/portfolio/show', search: { coin: coin.coin, exchange: coin.exchange } }}
          start={<CoinAvatar coin={coin.coin} />}
          title={
            severalExchanges ? (
              <>
                {coin.coin} <ExchangeTag exchange={coin.exchange} />
              </>
            ) : (
              coin.coin
            )
          }
          subtitle={
            <>
              <CoinStateBadge state={coin.state} book={coin.book} />{' '}
              {t('panel.deals', { open: coin.openDeals, max: coin.maxTrades })}
              {coin.dryReason || coin.lastError ? (
                <>
                  <br />
                  <CoinStatusNote coin={coin} compact />
                </>
              ) : null}
              {isOffBook(coin.book) ? (
                <>
                  <br />
                  <PlanOnBookNote book={coin.book} compact />
                </>
              ) : null}
            </>
          }
          end={<Usdt value={coin.pnlToday} signed unit={false} />}
        />
      ))}
    </Card>
  );
};

const PanelLoading = () => (
  <>
    <Skeleton height={150} />
    <div style={{ height: 12 }} />
    <Skeleton height={120} />
  </>
);

/** The main trading panel (docs/product.md#screens "/"): PnL, start/pause, coins, licence and fee balance. */
export const PanelScreen = () => {
  const { t } = useTranslation();
  const user = useSessionUser();
  // Live while on screen: the bots trade between visits (the server allows one panel per 2 s).
  const panel = useApiQuery(getPanel, INITIAL_INPUTS.panel, { refetchInterval: PANEL_REFRESH_MS });
  return (
    <Screen
      title={t('panel.greeting', { name: user.firstName || user.username })}
      subtitle={t('panel.subtitle')}
    >
      <QueryView query={panel} loading={<PanelLoading />} title={t('panel.trading')}>
        {(data) => (
          <>
            <PnlHero panel={data} />
            <TradingControls panel={data} />
            <LicenseAndFees panel={data} />
          </>
        )}
      </QueryView>
      <ProfitChart />
      {/* On a 390×844 phone the fold is within the profit chart. */}
      <AfterFirstPaint>
        {panel.data ? (
          <>
            <SectionTitle>{t('panel.coins')}</SectionTitle>
            {panel.data.coins.length > 0 ? <p className="section-hint">{t('panel.coinsToday')}</p> : null}
            <Coins panel={panel.data} />
          </>
        ) : null}
        {panel.data ? <PanelPriceChart coins={panel.data.coins} /> : null}
        <CoinProfit />
        <CoinRating />
        <Card flush>
          <LinkRow
            link={{ to: '/pnl-stat' }}
            start={
              <IconAvatar>
                <ChartIcon />
              </IconAvatar>
            }
            title={t('panel.pnlStats')}
          />
        </Card>
      </AfterFirstPaint>
    </Screen>
  );
};
