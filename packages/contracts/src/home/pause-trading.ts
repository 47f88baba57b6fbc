import { z } from 'zod';
import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { ZCoinExchange, ZCoinName } from '../portfolio/coin-settings';
import { ZTradingState } from './trading-state';

/**
 * Pauses one coin (`?coin_name=BTC`) or all: resting orders are cancelled, lots stay. Never
 * refused for business reasons, so a user can always stop.
 */
export const pauseTrading = defineEndpoint({
  id: 'home.pauseTrading',
  method: 'POST',
  path: '/home/pause',
  summary: 'Pause trading for one coin or all coins',
  tags: ['home'],
  auth: true,
  query: z.object({
    coin_name: ZCoinName.optional().describe('absent = all coins'),
    exchange: ZCoinExchange.describe('with coin_name: its exchange; alone: every coin on that exchange'),
  }),
  response: ZTradingState,
  invalidates: ['portfolio.getCoin', 'portfolio.getCoinChart', 'portfolio.getPortfolio', 'home.getPanel'],
  errors: {
    400: documented('VALIDATION', 'EXCHANGE_REQUIRED'),
    401: documented('UNAUTHORIZED'),
    404: documented('COIN_NOT_FOUND'),
  },
});
