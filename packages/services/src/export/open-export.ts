import { checkSessionUser } from '../auth/session-user';
import type { ServiceContext } from '../context/service-context';
import { AppError, isAppError } from '../errors';
import { csvChunks } from './csv';
import { DEAL_COLUMNS, dealBots, dealRows } from './deal-rows';
import type { ExportRequest } from './download-token';
import { PNL_COIN_COLUMNS, PNL_DAY_COLUMNS, pnlCoinRows, pnlDayRows } from './pnl-rows';
import { WALLET_COLUMNS, walletRows } from './wallet-rows';

/** A CSV export ready to send: its file name and its chunks, read lazily page by page. */
export type OpenedExport = { fileName: string; chunks: AsyncIterable<string> };

/** The path of the download a link names (apps/api serves it; contracts export.downloadByLink). */
export const DOWNLOAD_PATH = '/export/download.csv';

/** `gridbot-<what>-<UTC day>.csv`, e.g. gridbot-deals-BTC-2026-11-28.csv (docs/product.md#exports). */
const fileNameOf = (ctx: ServiceContext, parts: readonly string[]): string =>
  `gridbot-${[...parts, ctx.clock.now().toISOString().slice(0, 10)].join('-')}.csv`;

/**
 * Opens one export of the user's (docs/product.md#exports). What can be refused is checked before
 * anything is sent (another user's coin bot: COIN_NOT_FOUND), so a refusal is an error answer and
 * never a truncated file; the rows are read only as the chunks are pulled.
 */
export const openExport = async (
  ctx: ServiceContext,
  input: { userId: number; request: ExportRequest },
): Promise<OpenedExport> => {
  const { userId, request } = input;
  if (request.file === 'deals') {
    const bots = await dealBots(ctx, { userId, coinBotId: request.coinBotId });
    const what = request.coinBotId === undefined ? 'all' : (bots[0]?.coin ?? 'coin');
    return {
      fileName: fileNameOf(ctx, ['deals', what]),
      chunks: csvChunks(DEAL_COLUMNS, dealRows(ctx, userId, bots)),
    };
  }
  if (request.file === 'pnl_daily') {
    return request.by === 'coin'
      ? {
          fileName: fileNameOf(ctx, ['pnl-daily-by-coin']),
          chunks: csvChunks(PNL_COIN_COLUMNS, pnlCoinRows(ctx, userId)),
        }
      : {
          fileName: fileNameOf(ctx, ['pnl-daily']),
          chunks: csvChunks(PNL_DAY_COLUMNS, pnlDayRows(ctx, userId)),
        };
  }
  return {
    fileName: fileNameOf(ctx, ['wallet', ...(request.type ? [request.type] : [])]),
    chunks: csvChunks(WALLET_COLUMNS, walletRows(ctx, { userId, type: request.type })),
  };
};

/**
 * A signed download link of one export (docs/security.md#download-links): checked as the export
 * itself is (another user's coin bot is refused now, not when the link is used), valid
 * EXPORT_LINK_TTL_S. The path carries the token; the file name is the one the download will send.
 */
export const createExportLink = async (
  ctx: ServiceContext,
  input: { userId: number; uid: number; request: ExportRequest },
): Promise<{ path: string; fileName: string; expiresAt: string }> => {
  const { fileName } = await openExport(ctx, input);
  const { token, expiresAt } = await ctx.auth.downloads.issue(input, ctx.clock.now());
  return {
    path: `${DOWNLOAD_PATH}?token=${encodeURIComponent(token)}`,
    fileName,
    expiresAt: expiresAt.toISOString(),
  };
};

/**
 * The export a link names, for whoever holds the link (no session): its signature, audience and
 * age, then its account as a session's (docs/security.md#sessions) — a blocked account, or one
 * whose sessions were ended after the link was made, gets no file. Every refusal is the same
 * EXPORT_LINK_INVALID.
 */
export const openExportLink = async (
  ctx: ServiceContext,
  input: { token: string },
): Promise<OpenedExport> => {
  const link = await ctx.auth.downloads.verify(input.token, ctx.clock.now());
  try {
    await checkSessionUser(ctx, link);
  } catch (error) {
    throw isAppError(error) ? new AppError('EXPORT_LINK_INVALID') : error;
  }
  return openExport(ctx, { userId: link.userId, request: link.request });
};
