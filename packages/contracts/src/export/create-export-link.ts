import { z } from 'zod';
import { defineEndpoint, ZIsoDateTime } from '../core';
import { documented } from '../errors';
import { ZCoinBotId } from '../portfolio/coin-settings';
import { ZTransactionType } from '../wallet/transaction';
import { ZExportFile, ZPnlExportRows } from './export-files';

/** Which query fields each file takes: any other one is a 400, not silently ignored. */
const FIELDS_OF = { deals: ['coin_user_id'], pnl_daily: ['by'], wallet: ['type'] } as const;
const OPTIONS = ['coin_user_id', 'by', 'type'] as const;

/**
 * A short-lived signed download link of one export (docs/security.md#download-links), for a client
 * that fetches the file itself without our Authorization header: Telegram's `downloadFile`, or a
 * plain browser link. The link names the file and its user; it is not the session token.
 */
export const createExportLink = defineEndpoint({
  id: 'export.createLink',
  method: 'POST',
  path: '/export/link',
  summary: 'A signed download link of a CSV export, valid a few minutes',
  tags: ['export'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1000 },
  query: z
    .object({
      file: ZExportFile,
      coin_user_id: ZCoinBotId.optional().describe('deals: one coin bot; all coins without it'),
      by: ZPnlExportRows.optional().describe('pnl_daily: day (default) or coin'),
      type: ZTransactionType.optional().describe('wallet: only this transaction type'),
    })
    .superRefine((query, issues) => {
      const allowed: readonly string[] = FIELDS_OF[query.file];
      for (const name of OPTIONS) {
        if (query[name] !== undefined && !allowed.includes(name))
          issues.addIssue({
            code: 'custom',
            path: [name],
            message: `not a field of the ${query.file} export`,
          });
      }
    }),
  response: z.object({
    path: z
      .string()
      .describe('the download path with its token, on the API origin; no Authorization header needed'),
    fileName: z.string().describe('the suggested file name, also in Content-Disposition'),
    expiresAt: ZIsoDateTime.describe('the link works until this instant'),
  }),
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    404: documented('COIN_NOT_FOUND'),
    429: documented('RATE_LIMITED'),
  },
});
