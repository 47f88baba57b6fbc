import { z } from 'zod';
import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { ZLadder, ZPortfolioCoin } from './coin-bot';
import { ZCoinSettingsInput } from './coin-settings';

/**
 * Edit-token screen. New settings apply to open deals too: the ladder is re-planned and resting
 * orders replaced. With `preview: true` nothing is saved and the re-planned ladder comes back, so
 * the screen can show it before the user confirms (docs/grid.md).
 */
export const editCoinSettings = defineEndpoint({
  id: 'portfolio.editCoinSettings',
  method: 'POST',
  path: '/portfolio/setting/edit',
  summary: "Change a coin's grid settings (or preview the new ladder)",
  tags: ['portfolio'],
  auth: true,
  body: ZCoinSettingsInput,
  response: z.object({ saved: z.boolean(), coin: ZPortfolioCoin, ladder: ZLadder }),
  invalidates: [
    'portfolio.getCoin',
    'portfolio.getCoinChart',
    'portfolio.getPortfolio',
    'home.getPanel',
    'portfolio.listCoinActivity',
  ],
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    404: documented('COIN_NOT_FOUND'),
    422: documented('LICENSE_BALANCE_LIMIT', 'ORDER_BELOW_EXCHANGE_MIN'),
    502: documented('EXCHANGE_UNAVAILABLE'),
  },
});
