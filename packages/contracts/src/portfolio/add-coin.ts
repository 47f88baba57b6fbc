import { z } from 'zod';
import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { ZPortfolioCoin } from './coin-bot';
import { ZCoinExchange, ZCoinName } from './coin-settings';

/**
 * Adds a coin (`?data_send=SOL`) with DEFAULT_COIN_SETTINGS, paused; the user edits and starts it.
 * The coin count is checked against the licence; the coin bot trades on the user's exchange account,
 * so API keys must be connected first (API_KEYS_MISSING). docs/grid.md#adding-a-coin
 */
export const addCoin = defineEndpoint({
  id: 'portfolio.addCoin',
  method: 'POST',
  path: '/portfolio/add_coin/add',
  summary: 'Add a coin to the portfolio',
  tags: ['portfolio'],
  auth: true,
  query: z.object({
    data_send: ZCoinName.describe('coin to add'),
    exchange: ZCoinExchange.describe(
      'the exchange account to add it on; may be omitted while the user has keys on one exchange only',
    ),
  }),
  response: z.object({ coin: ZPortfolioCoin }),
  invalidates: ['portfolio.getCoin', 'portfolio.getPortfolio', 'home.getPanel', 'portfolio.listAddableCoins'],
  errors: {
    400: documented('VALIDATION', 'EXCHANGE_REQUIRED'),
    401: documented('UNAUTHORIZED'),
    409: documented('COIN_ALREADY_ADDED'),
    422: documented('COIN_LIMIT', 'COIN_NOT_LISTED', 'API_KEYS_MISSING'),
    502: documented('EXCHANGE_UNAVAILABLE'),
  },
});
