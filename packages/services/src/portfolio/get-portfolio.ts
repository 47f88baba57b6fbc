import type { CoinProfitPeriod, getPortfolio } from '@gridbot/contracts';
import { usdtFigure } from '@gridbot/domain';
import Decimal from 'decimal.js';
import type { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { getLicenseCheck } from '../license/user-license';
import { pctOf, pctText } from './figures';
import { loadPortfolioCoins } from './portfolio-coin';

export type PortfolioView = z.input<(typeof getPortfolio)['response']>;

const sum = (values: string[]) => values.reduce((total, v) => total.plus(v), new Decimal(0));

/** The portfolio screen: every coin's card, totals over them and the licence room (docs/pnl.md#portfolio-figures). */
export const getUserPortfolio = async (
  ctx: ServiceContext,
  input: { userId: number; period: CoinProfitPeriod },
): Promise<PortfolioView> => {
  const [{ dryAll, coins }, license] = await Promise.all([
    loadPortfolioCoins(ctx, input),
    getLicenseCheck(ctx, { userId: input.userId }),
  ]);
  const views = coins.map((c) => c.view);
  const committed = sum(views.map((v) => v.committedCapital));
  const periodPnl = sum(views.map((v) => v.periodPnl));
  return {
    period: input.period,
    dryAll,
    coins: views,
    totals: {
      committedCapital: usdtFigure(committed),
      invested: usdtFigure(sum(views.map((v) => v.stats.invested))),
      unrealizedPnl: usdtFigure(sum(views.map((v) => v.stats.unrealizedPnl))),
      realizedPnl: usdtFigure(sum(views.map((v) => v.stats.realizedPnl))),
      periodPnl: usdtFigure(periodPnl),
      periodPnlPct: pctText(pctOf(periodPnl, committed)),
      openDeals: views.reduce((n, v) => n + v.stats.openDeals, 0),
    },
    limits: {
      coinsUsed: license.usage.coins,
      coinsLimit: license.level.coins,
      balanceLimit: usdtFigure(new Decimal(license.level.balanceLimit)),
    },
  };
};
