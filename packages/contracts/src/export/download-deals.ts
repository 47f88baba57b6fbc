import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { EXPORT_RATE_LIMIT, ZCsv, ZDealsExportQuery } from './export-files';

/** Every deal (open and closed) of one coin bot, or of all the user's coins, as CSV. */
export const downloadDeals = defineEndpoint({
  id: 'export.downloadDeals',
  method: 'GET',
  path: '/export/deals.csv',
  summary: 'Deals as CSV: one coin bot or all coins',
  tags: ['export'],
  auth: true,
  rateLimit: EXPORT_RATE_LIMIT,
  query: ZDealsExportQuery,
  response: ZCsv,
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    404: documented('COIN_NOT_FOUND'),
    429: documented('RATE_LIMITED'),
  },
});
