import { type CoinProfitPeriod, getPortfolio, type PortfolioCoin } from '@gridbot/contracts';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useApiQuery } from '../../api/use-api';
import { compareDecimals } from '../../format/decimal';
import { onSeveralExchanges } from '../../format/exchange-name';
import { useFormat } from '../../format/use-format';
import { INITIAL_INPUTS } from '../../session/initial-calls';
import { ExchangeTag } from '../../ui/exchange-tag';
import { CoinAvatar, LinkRow, Row } from '../../ui/list-row';
import { Usdt } from '../../ui/money';
import { QueryView } from '../../ui/query-view';
import { Card, SectionTitle } from '../../ui/screen';
import { EmptyState, SkeletonRows } from '../../ui/states';
import { PeriodSwitch } from '../shared/period-switch';
import { PANEL_REFRESH_MS } from './refresh';

/** Best coin first; equal profits keep the order the user added them in. */
const byProfit = (coins: readonly PortfolioCoin[]) =>
  [...coins].sort((a, b) => compareDecimals(b.periodPnl, a.periodPnl));

/**
 * The panel's coin profit (docs/pnl.md#portfolio-figures): each coin's realized profit over the
 * chosen period. The day is the initial load's "coin profit" call, so it is not asked twice.
 */
export const CoinProfit = () => {
  const { t } = useTranslation();
  const format = useFormat();
  const [period, setPeriod] = useState<CoinProfitPeriod>('day');
  // The previous period stays on screen until the next one arrives: the list does not jump.
  const query = useApiQuery(
    getPortfolio,
    period === 'day' ? INITIAL_INPUTS.coinProfit : { query: { period } },
    // Live like the panel around it: its coins' profit of today changes with every sale.
    { placeholderData: keepPreviousData, refetchInterval: PANEL_REFRESH_MS },
  );
  return (
    <>
      <SectionTitle>{t('coinProfit.title')}</SectionTitle>
      <PeriodSwitch label={t('coinProfit.period')} value={period} onChange={setPeriod} />
      <QueryView query={query} loading={<SkeletonRows rows={3} />} title={t('coinProfit.title')}>
        {(portfolio) =>
          portfolio.coins.length === 0 ? (
            // The coins section above offers to add coins; this one only says there is nothing to count.
            <Card>
              <EmptyState title={t('coinProfit.empty')} />
            </Card>
          ) : (
            <Card flush>
              <div className="coin-profit" data-period={portfolio.period}>
                <Row
                  title={t('coinProfit.total')}
                  subtitle={t('coinProfit.ofCapital', {
                    pct: format.pct(portfolio.totals.periodPnlPct, { plus: true }),
                  })}
                  end={<Usdt value={portfolio.totals.periodPnl} signed />}
                />
                {byProfit(portfolio.coins).map((coin) => (
                  <LinkRow
                    key={coin.coinUserId}
                    link={{ to: '/portfolio/show', search: { coin: coin.coin, exchange: coin.exchange } }}
                    start={<CoinAvatar coin={coin.coin} />}
                    title={
                      onSeveralExchanges(portfolio.coins) ? (
                        <>
                          {coin.coin} <ExchangeTag exchange={coin.exchange} />
                        </>
                      ) : (
                        coin.coin
                      )
                    }
                    subtitle={t('coinProfit.ofCapital', {
                      pct: format.pct(coin.periodPnlPct, { plus: true }),
                    })}
                    end={<Usdt value={coin.periodPnl} signed unit={false} />}
                  />
                ))}
              </div>
            </Card>
          )
        }
      </QueryView>
    </>
  );
};
