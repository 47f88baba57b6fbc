import { defineEndpoint, ZIdempotencyHeaders } from '../core';
import { documented } from '../errors';
import { ZLicensePurchase } from './update-license';

/** Renews the current paid licence for a year at 20 % off (see ZLicense.renewal). */
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
    422: documented('INSUFFICIENT_FUNDS', 'LICENSE_RENEWAL_UNAVAILABLE', 'LICENSE_UPDATE_FAILED'),
  },
});
