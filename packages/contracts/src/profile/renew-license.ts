import { defineEndpoint, ZIdempotencyHeaders } from '../core';
import { documented } from '../errors';
import { ZLicensePurchase } from './update-license';

/**
 * Renews the current paid licence for a year at 20 % off, in the 30 days before it ends (see
 * ZLicense.renewal); once it has ended the level is bought again (`update_licence`) at the full price.
 * A retry with the same `Idempotency-Key` pays once; the key reused for anything else is 409.
 */
export const renewLicense = defineEndpoint({
  id: 'profile.renewLicense',
  method: 'POST',
  path: '/profile/renew_license',
  summary: 'Renew the licence for a year with the renewal discount',
  tags: ['profile'],
  auth: true,
  headers: ZIdempotencyHeaders,
  response: ZLicensePurchase,
  invalidates: ['profile.getProfile', 'wallet.getWallet', 'home.getPanel'],
  errors: {
    401: documented('UNAUTHORIZED'),
    409: documented('REQUEST_CONFLICT'),
    422: documented(
      'INSUFFICIENT_FUNDS',
      'LICENSE_RENEWAL_UNAVAILABLE',
      'LICENSE_RENEWAL_EXPIRED',
      'LICENSE_UPDATE_FAILED',
    ),
  },
});
