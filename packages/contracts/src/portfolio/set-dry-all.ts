import { z } from 'zod';
import { defineEndpoint, ZSwitch } from '../core';
import { documented } from '../errors';
import { ZTradingState } from '../home/trading-state';

/**
 * Global drying mode (`?status=on|off`): no entries or averaging buys on any coin, sells continue.
 * It overrides but does not change each coin's own dry flag, so switching it off restores them.
 */
export const setDryAll = defineEndpoint({
  id: 'portfolio.setDryAll',
  method: 'GET',
  path: '/portfolio/dry_coins',
  summary: 'Switch global drying mode on or off',
  tags: ['portfolio'],
  auth: true,
  query: z.object({ status: ZSwitch.describe('true = dry all coins') }),
  response: ZTradingState,
  invalidates: ['portfolio.getCoin', 'portfolio.getCoinChart', 'portfolio.getPortfolio', 'home.getPanel'],
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
