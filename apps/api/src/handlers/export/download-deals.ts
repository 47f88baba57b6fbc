import { downloadDeals } from '@gridbot/contracts';
import { openExport } from '@gridbot/services';
import { handleCsv } from './csv-reply';

export const downloadDealsHandler = handleCsv(downloadDeals, (ctx, { query, session }) =>
  openExport(ctx, { userId: session.userId, request: { file: 'deals', coinBotId: query.coin_user_id } }),
);
