import { z } from 'zod';
import { defineEndpoint, ZSwitch } from '../core';
import { documented } from '../errors';
import { ZTradingState } from '../home/trading-state';

/**
 * Bulk change of every coin's own dry flag (`?status=on` clears it on all coins so they buy again,
 * `off` sets it on all). Unlike dry_coins this rewrites the per-coin flags; running/paused and
 * global dry are untouched.
 */
export const activateCoins = defineEndpoint({
  id: 'portfolio.activateCoins',
  method: 'GET',
  path: '/portfolio/activate_coins',
  summary: 'Activate (un-dry) or dry every coin in bulk',
  tags: ['portfolio'],
  auth: true,
  query: z.object({ status: ZSwitch.describe('true = every coin active (own dry flag off)') }),
  response: ZTradingState,
  invalidates: ['portfolio.getCoin', 'portfolio.getCoinChart', 'portfolio.getPortfolio', 'home.getPanel'],
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
