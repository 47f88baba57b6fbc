import type { CoinProfitPeriod, getCoin } from '@gridbot/contracts';
import type { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { ACTIVE_ORDER_STATUSES } from '../grid/coin-bot-state';
import { ladderView } from './ladder-view';
import { loadPortfolioCoins, type PortfolioCoinBot } from './portfolio-coin';

export type CoinView = z.input<(typeof getCoin)['response']>;

/** The user's coin bot for a coin still in the portfolio, with its card; COIN_NOT_FOUND otherwise. */
export const findPortfolioCoin = async (
  ctx: ServiceContext,
  input: { userId: number; coin: string; period?: CoinProfitPeriod; prices?: boolean },
): Promise<PortfolioCoinBot> => {
  const [coin] = (await loadPortfolioCoins(ctx, input)).coins;
  if (!coin) throw new AppError('COIN_NOT_FOUND');
  return coin;
};

/** Planner keys of the coin bot's orders resting (or being placed) now. */
export const liveOrderKeys = async (ctx: ServiceContext, coinBotId: number): Promise<Set<string>> => {
  const rows = await ctx.prisma.order.findMany({
    where: { coinBotId, status: { in: [...ACTIVE_ORDER_STATUSES] } },
    select: { key: true },
  });
  return new Set(rows.map((r) => r.key));
};

/** The token screen: one coin's card, stats and ladder (docs/grid.md#coin-states). */
export const getPortfolioCoin = async (
  ctx: ServiceContext,
  input: { userId: number; coin: string; period: CoinProfitPeriod },
): Promise<CoinView> => {
  const coin = await findPortfolioCoin(ctx, input);
  const liveKeys = await liveOrderKeys(ctx, coin.bot.id);
  return {
    period: input.period,
    coin: coin.view,
    ladder: ladderView(coin, { liveKeys, now: ctx.clock.now() }),
  };
};
