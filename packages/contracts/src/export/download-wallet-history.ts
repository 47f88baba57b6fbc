import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { EXPORT_RATE_LIMIT, ZCsv, ZWalletExportQuery } from './export-files';

/** Every wallet transaction, all time, as CSV: the wallet screen's lines. */
export const downloadWalletHistory = defineEndpoint({
  id: 'export.downloadWalletHistory',
  method: 'GET',
  path: '/export/wallet.csv',
  summary: 'Wallet history as CSV',
  tags: ['export'],
  auth: true,
  rateLimit: EXPORT_RATE_LIMIT,
  query: ZWalletExportQuery,
  response: ZCsv,
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    429: documented('RATE_LIMITED'),
  },
});
