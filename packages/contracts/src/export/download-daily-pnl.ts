import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { EXPORT_RATE_LIMIT, ZCsv, ZPnlExportQuery } from './export-files';

/** Realized PnL per UTC day (or per day and coin) as CSV: the PnL statistics screen's rows. */
export const downloadDailyPnl = defineEndpoint({
  id: 'export.downloadDailyPnl',
  method: 'GET',
  path: '/export/pnl_daily.csv',
  summary: 'PnL by UTC day as CSV',
  tags: ['export'],
  auth: true,
  rateLimit: EXPORT_RATE_LIMIT,
  query: ZPnlExportQuery,
  response: ZCsv,
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    429: documented('RATE_LIMITED'),
  },
});
