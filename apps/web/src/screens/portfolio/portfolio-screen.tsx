import { type CoinProfitPeriod, getPortfolio, type ResponseOf } from '@gridbot/contracts';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { ratioOf } from '../../format/decimal';
import { useFormat } from '../../format/use-format';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { ExchangeTag } from '../../ui/exchange-tag';
import { PlusIcon } from '../../ui/icons';
import { CoinAvatar, LinkRow } from '../../ui/list-row';
import { Pct, Usdt } from '../../ui/money';
import { Progress } from '../../ui/progress';
import { QueryView } from '../../ui/query-view';
import { Card, Screen, SectionTitle } from '../../ui/screen';
import { EmptyState, Skeleton } from '../../ui/states';
import { CoinStateBadge } from '../shared/coin-state-badge';
import { CoinStatusNote } from '../shared/coin-status-note';
import { isOffBook, PlanOnBookNote } from '../shared/orders-on-book';
import { PeriodSwitch } from '../shared/period-switch';

type Portfolio = ResponseOf<typeof getPortfolio>;

const Totals = ({ portfolio }: { portfolio: Portfolio }) => {
  const { t } = useTranslation();
  const { totals } = portfolio;
  return (
    <div className="hero">
      <div className="hero__label">{t('portfolio.periodPnl')}</div>
      <div className="hero__value">
        <Usdt value={totals.periodPnl} />{' '}
        <span className="hero__pct">{<Pct value={totals.periodPnlPct} signed />}</span>
      </div>
      <div className="hero__row">
        <span>
          {t('portfolio.invested')}
          <b>
            <Usdt value={totals.invested} />
          </b>
        </span>
        <span>
          {t('portfolio.unrealized')}
          <b>
            <Usdt value={totals.unrealizedPnl} />
          </b>
        </span>
        <span>
          {t('portfolio.realized')}
          <b>
            <Usdt value={totals.realizedPnl} />
          </b>
        </span>
      </div>
    </div>
  );
};

const Limits = ({ portfolio }: { portfolio: Portfolio }) => {
  const { t } = useTranslation();
  const format = useFormat();
  const { limits, totals } = portfolio;
  return (
    <Card>
      <div className="limit-label">
        <span>{t('portfolio.coinsUsed', { used: limits.coinsUsed, limit: limits.coinsLimit })}</span>
      </div>
      <Progress
        value={limits.coinsUsed}
        max={limits.coinsLimit}
        label={t('portfolio.coinsUsed', { used: limits.coinsUsed, limit: limits.coinsLimit })}
      />
      <div className="limit-label">
        <span>{t('portfolio.committed')}</span>
        <span className="muted">
          {format.usdt(totals.committedCapital)} / {format.usdt(limits.balanceLimit)} USDT
        </span>
      </div>
      <Progress
        value={Math.round(ratioOf(totals.committedCapital, limits.balanceLimit) * 1000)}
        max={1000}
        label={t('portfolio.balanceLimit')}
      />
    </Card>
  );
};

const CoinList = ({ portfolio }: { portfolio: Portfolio }) => {
  const { t } = useTranslation();
  const format = useFormat();
  if (portfolio.coins.length === 0) {
    return (
      <Card>
        <EmptyState
          title={t('portfolio.empty')}
          text={t('portfolio.emptyHint')}
          action={
            <Link to="/portfolio/add" className="button button--primary button--small">
              {t('portfolio.addCoin')}
            </Link>
          }
        />
      </Card>
    );
  }
  return (
    <Card flush>
      {portfolio.coins.map((coin) => (
        <LinkRow
          key={coin.coinUserId}
          link={{ to: '/portfolio/show', search: { coin: coin.coin, exchange: coin.exchange } }}
          start={<CoinAvatar coin={coin.coin} />}
          title={
            <>
              {coin.coin} <ExchangeTag exchange={coin.exchange} />{' '}
              <CoinStateBadge state={coin.state} book={coin.book} />
            </>
          }
          subtitle={
            <>
              {`${format.usdtExact(coin.settings.orderSize)} USDT · ${t('portfolio.step')} ${format.pct(coin.settings.stepPct)} · ${coin.stats.openDeals}/${coin.settings.maxTrades}`}
              {coin.dryReason || coin.lastError || coin.marketClosed ? (
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
          end={<Usdt value={coin.periodPnl} signed unit={false} />}
        />
      ))}
    </Card>
  );
};

/** Portfolio: every coin with its settings, state and profit for the chosen period. */
export const PortfolioScreen = () => {
  const { t } = useTranslation();
  const [period, setPeriod] = useState<CoinProfitPeriod>('day');
  const input = period === 'day' ? INITIAL_INPUTS.portfolio : { query: { period } };
  const query = useApiQuery(getPortfolio, input);
  return (
    <Screen
      title={t('portfolio.title')}
      action={
        <Link to="/portfolio/add" className="icon-button" aria-label={t('portfolio.addCoin')}>
          <PlusIcon />
        </Link>
      }
    >
      <PeriodSwitch label={t('portfolio.periodPnl')} value={period} onChange={setPeriod} />
      <QueryView query={query} loading={<Skeleton height={150} />} title={t('portfolio.periodPnl')}>
        {(portfolio) => (
          <>
            <Totals portfolio={portfolio} />
            <Limits portfolio={portfolio} />
            <SectionTitle>{t('nav.portfolio')}</SectionTitle>
            <CoinList portfolio={portfolio} />
          </>
        )}
      </QueryView>
    </Screen>
  );
};
