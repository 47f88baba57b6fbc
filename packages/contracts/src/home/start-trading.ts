import { z } from 'zod';
import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { ZCoinExchange, ZCoinName } from '../portfolio/coin-settings';
import { ZTradingState } from './trading-state';

/**
 * Starts one coin (`?coin_name=BTC`) or, without it, every coin of the portfolio (refused on an
 * empty portfolio). Checks API connection, exchange USDT balance, fee balance, licence expiry and
 * balance limit first.
 */
export const startTrading = defineEndpoint({
  id: 'home.startTrading',
  method: 'POST',
  path: '/home/start',
  summary: 'Start trading for one coin or all coins',
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
    422: documented(
      'NO_API_CONNECTION',
      'EXCHANGE_BALANCE_ZERO',
      'FEE_BALANCE_EMPTY',
      'LICENSE_EXPIRED',
      'LICENSE_BALANCE_LIMIT',
      'NO_COINS_TO_START',
    ),
    502: documented('EXCHANGE_UNAVAILABLE'),
  },
});
