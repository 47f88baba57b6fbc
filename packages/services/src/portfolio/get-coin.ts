import type { CoinProfitPeriod, Exchange, getCoin } from '@gridbot/contracts';
import type { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { ladderView } from './ladder-view';
import { loadPortfolioCoins, type PortfolioCoinBot } from './portfolio-coin';

export type CoinView = z.input<(typeof getCoin)['response']>;

/** The user's coin bot for a coin still in the portfolio, with its card; COIN_NOT_FOUND otherwise. */
export const findPortfolioCoin = async (
  ctx: ServiceContext,
  input: {
    userId: number;
    coin: string;
    exchange?: Exchange | undefined;
    period?: CoinProfitPeriod;
    prices?: boolean;
  },
): Promise<PortfolioCoinBot> => {
  const [coin, other] = (await loadPortfolioCoins(ctx, input)).coins;
  if (!coin) throw new AppError('COIN_NOT_FOUND');
  // The coin runs on several exchanges and the call did not say which (docs/grid.md#coins-on-several-exchanges).
  if (other) throw new AppError('EXCHANGE_REQUIRED');
  return coin;
};

/** The token screen: one coin's card, stats and ladder (docs/grid.md#coin-states). */
export const getPortfolioCoin = async (
  ctx: ServiceContext,
  input: { userId: number; coin: string; exchange?: Exchange | undefined; period: CoinProfitPeriod },
): Promise<CoinView> => {
  const coin = await findPortfolioCoin(ctx, input);
  return {
    period: input.period,
    coin: coin.view,
    ladder: ladderView(coin, { now: ctx.clock.now() }),
  };
};
