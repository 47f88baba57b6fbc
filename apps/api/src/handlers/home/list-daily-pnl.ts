import { listDailyPnl } from '@gridbot/contracts';
import { listDailyPnl as listDays } from '@gridbot/services';
import { handle } from '../../handle';

export const listDailyPnlHandler = handle(listDailyPnl, (ctx, { query, session }) =>
  listDays(ctx, { userId: session.userId, page: query.page, limit: query.limit, cursor: query.cursor }),
);
