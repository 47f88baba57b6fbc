import { z } from 'zod';
import { defineEndpoint, ZIdempotencyHeaders, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZBalances } from '../wallet/transaction';
import { ZLicense, ZLicenseLevel } from './license';

export const ZLicensePurchase = z.object({
  license: ZLicense,
  charged: ZUsdt.describe('paid from the main balance'),
  transactionId: z.string().describe('the license_purchase transaction'),
  balances: ZBalances,
});

/**
 * Buys a higher licence level from the main balance (any paid level once a paid licence has
 * expired): from an unexpired paid licence the price difference with expiry unchanged, otherwise the
 * full price and a year from now. A retry with the same `Idempotency-Key` pays once and answers the
 * same; the key reused with another level, or for another money move, is 409 and nothing moves.
 */
export const updateLicense = defineEndpoint({
  id: 'profile.updateLicense',
  method: 'POST',
  path: '/profile/update_licence',
  summary: 'Upgrade the licence',
  tags: ['profile'],
  auth: true,
  headers: ZIdempotencyHeaders,
  body: z.object({ level: ZLicenseLevel.describe('level to buy') }),
  response: ZLicensePurchase,
  invalidates: [
    'profile.getProfile',
    'wallet.getWallet',
    'home.getPanel',
    'portfolio.getPortfolio',
    'portfolio.listAddableCoins',
  ],
  errors: {
    400: documented('VALIDATION', 'LICENSE_LEVEL_UNKNOWN'),
    401: documented('UNAUTHORIZED'),
    409: documented('REQUEST_CONFLICT'),
    422: documented('INSUFFICIENT_FUNDS', 'LICENSE_NOT_UPGRADE', 'LICENSE_UPDATE_FAILED'),
  },
});
