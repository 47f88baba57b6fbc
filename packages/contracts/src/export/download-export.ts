import { z } from 'zod';
import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { ZCsv } from './export-files';

/**
 * The file a signed link names (docs/security.md#download-links): no Authorization header, the
 * token alone says whose file and which. Limited per address, as the sign-in calls are.
 */
export const downloadExport = defineEndpoint({
  id: 'export.downloadByLink',
  method: 'GET',
  path: '/export/download.csv',
  summary: 'A CSV export through its signed link',
  tags: ['export'],
  auth: false,
  rateLimit: { max: 1, windowMs: 1000 },
  query: z.object({
    token: z.string().min(1).max(2000).describe('the link token of POST /export/link'),
  }),
  response: ZCsv,
  errors: {
    400: documented('VALIDATION'),
    401: documented('EXPORT_LINK_INVALID'),
    404: documented('COIN_NOT_FOUND'),
    429: documented('RATE_LIMITED'),
  },
});
