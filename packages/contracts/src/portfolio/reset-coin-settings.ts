import { z } from 'zod';
import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { ZLadder, ZPortfolioCoin } from './coin-bot';
import { ZCoinExchange, ZCoinName } from './coin-settings';

/** Puts a coin back on DEFAULT_COIN_SETTINGS (dry off) and re-plans its ladder. */
export const resetCoinSettings = defineEndpoint({
  id: 'portfolio.resetCoinSettings',
  method: 'POST',
  path: '/portfolio/setting/reset_setting',
  summary: "Reset a coin's grid settings to the defaults",
  tags: ['portfolio'],
  auth: true,
  body: z.object({ coin: ZCoinName, exchange: ZCoinExchange }),
  response: z.object({ saved: z.literal(true), coin: ZPortfolioCoin, ladder: ZLadder }),
  invalidates: [
    'portfolio.getCoin',
    'portfolio.getCoinChart',
    'portfolio.getPortfolio',
    'home.getPanel',
    'portfolio.listCoinActivity',
  ],
  errors: {
    400: documented('VALIDATION', 'EXCHANGE_REQUIRED'),
    401: documented('UNAUTHORIZED'),
    404: documented('COIN_NOT_FOUND'),
    422: documented(
      'LICENSE_BALANCE_LIMIT',
      'ORDER_BELOW_EXCHANGE_MIN',
      'MAX_TRADES_ABOVE_EXCHANGE_LIMIT',
      'DEEPEST_BUY_BELOW_EXCHANGE_PRICE_LIMIT',
    ),
    502: documented('EXCHANGE_UNAVAILABLE'),
  },
});
