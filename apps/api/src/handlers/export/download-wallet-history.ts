import { downloadWalletHistory } from '@gridbot/contracts';
import { openExport } from '@gridbot/services';
import { handleCsv } from './csv-reply';

export const downloadWalletHistoryHandler = handleCsv(downloadWalletHistory, (ctx, { query, session }) =>
  openExport(ctx, { userId: session.userId, request: { file: 'wallet', type: query.type } }),
);
