import { z } from 'zod';
import { defineEndpoint, ZDecimal } from '../core';
import { documented } from '../errors';
import { ZCoinExchange, ZCoinName } from './coin-settings';

/**
 * Removes a coin (`?data_send=SOL`): its resting orders are cancelled and its open lots are left
 * in the exchange account, no longer managed (like stopping a Binance grid without selling). The
 * coin bot's history stays in the PnL statistics.
 */
export const deleteCoin = defineEndpoint({
  id: 'portfolio.deleteCoin',
  method: 'POST',
  path: '/portfolio/setting/delete',
  summary: 'Remove a coin from the portfolio',
  tags: ['portfolio'],
  auth: true,
  query: z.object({ data_send: ZCoinName.describe('coin to remove'), exchange: ZCoinExchange }),
  response: z.object({
    coin: z.string(),
    cancelledOrders: z.number().int(),
    leftOnExchange: z.object({
      lots: z.number().int().describe('open lots no longer managed'),
      quantity: ZDecimal.describe('their base-coin quantity, still in the exchange account'),
    }),
  }),
  invalidates: ['portfolio.getCoin', 'portfolio.getPortfolio', 'home.getPanel', 'portfolio.listAddableCoins'],
  errors: {
    400: documented('VALIDATION', 'EXCHANGE_REQUIRED'),
    401: documented('UNAUTHORIZED'),
    404: documented('COIN_NOT_FOUND'),
    502: documented('EXCHANGE_UNAVAILABLE'),
  },
});
