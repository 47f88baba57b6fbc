import { z } from 'zod';
import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { ZCoinProfitPeriod, ZCoinProfitPeriodName } from '../periods';
import { ZLadder, ZPortfolioCoin } from './coin-bot';
import { ZCoinExchange, ZCoinName } from './coin-settings';

/**
 * The token screen (spec /portfolio/{x}): one coin's card, stats and ladder. `period` sets the
 * window of `periodPnl` (the spec's coin profit, default `day`). Fastify prefers the static
 * siblings (`/portfolio/trades`, `/portfolio/add_coin/add`, …), so clients send upper-case coins.
 */
export const getCoin = defineEndpoint({
  id: 'portfolio.getCoin',
  method: 'POST',
  path: '/portfolio/:coin',
  summary: "One coin's portfolio card, statistics and ladder",
  tags: ['portfolio'],
  auth: true,
  params: z.object({ coin: ZCoinName }),
  query: z.object({ period: ZCoinProfitPeriod, exchange: ZCoinExchange }),
  response: z.object({
    period: ZCoinProfitPeriodName,
    coin: ZPortfolioCoin,
    ladder: ZLadder,
  }),
  errors: {
    400: documented('VALIDATION', 'EXCHANGE_REQUIRED'),
    401: documented('UNAUTHORIZED'),
    404: documented('COIN_NOT_FOUND'),
  },
});
