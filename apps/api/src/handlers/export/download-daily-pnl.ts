import { downloadDailyPnl } from '@gridbot/contracts';
import { openExport } from '@gridbot/services';
import { handleCsv } from './csv-reply';

export const downloadDailyPnlHandler = handleCsv(downloadDailyPnl, (ctx, { query, session }) =>
  openExport(ctx, { userId: session.userId, request: { file: 'pnl_daily', by: query.by } }),
);
