import { z } from 'zod';
import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { ZTradingState } from '../home/trading-state';
import { ZCoinExchange, ZCoinName } from './coin-settings';

/**
 * The token screen's single mode switch. active = running and not dry (same checks as start);
 * dry = own dry flag on (keeps running, sells only); paused = same as pause with coin_name.
 */
export const ZCoinMode = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(['active', 'dry', 'paused']))
  .describe('active | dry | paused');

export const setCoinStatus = defineEndpoint({
  id: 'portfolio.setCoinStatus',
  method: 'GET',
  path: '/portfolio/set_coin_status',
  summary: "Set one coin's mode: active, dry or paused",
  tags: ['portfolio'],
  auth: true,
  query: z.object({ coin_name: ZCoinName, exchange: ZCoinExchange, status: ZCoinMode }),
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
    ),
    502: documented('EXCHANGE_UNAVAILABLE'),
  },
});
