import { z } from 'zod';
import { ZCoinBotId } from '../portfolio/coin-settings';
import { ZTransactionType } from '../wallet/transaction';

/**
 * The CSV exports (docs/product.md#exports): the deals of one coin bot or of all, PnL per UTC day
 * (or per day and coin), and the wallet's history. Each file is one GET with the bearer token, or
 * one short-lived signed link for clients that cannot send it (Telegram's downloadFile).
 */
export const EXPORT_FILES = ['deals', 'pnl_daily', 'wallet'] as const;
export const ZExportFile = z.enum(EXPORT_FILES);
export type ExportFile = z.output<typeof ZExportFile>;

/** PnL rows: one per UTC day, or one per UTC day and coin (the per-coin split of each day). */
export const ZPnlExportRows = z
  .enum(['day', 'coin'])
  .describe('day: one row per UTC day; coin: per day and coin');

/** `coin_user_id` of the deals export: one coin bot, or every coin (removed ones too) without it. */
export const ZDealsExportQuery = z.object({
  coin_user_id: ZCoinBotId.optional().describe('one coin bot (coin_user_id); all coins without it'),
});
export const ZPnlExportQuery = z.object({ by: ZPnlExportRows.default('day') });
export const ZWalletExportQuery = z.object({
  type: ZTransactionType.optional().describe('only this transaction type'),
});

/** The 2xx body of a CSV export: UTF-8 with a BOM, RFC 4180, streamed. */
export const ZCsv = z
  .string()
  .describe(
    'text/csv; charset=utf-8 — RFC 4180 (comma, CRLF), UTF-8 with a BOM, header row, decimals as text with "."',
  );

/** The largest CSV export a user may ask for, per call: heavier than any screen's read. */
export const EXPORT_RATE_LIMIT = { max: 1, windowMs: 3000 } as const;
