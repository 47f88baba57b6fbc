import { listMonthlyPnl } from '@gridbot/contracts';
import { listMonthlyPnl as listMonths } from '@gridbot/services';
import { handle } from '../../handle';

export const listMonthlyPnlHandler = handle(listMonthlyPnl, (ctx, { query, session }) =>
  listMonths(ctx, { userId: session.userId, page: query.page, limit: query.limit, cursor: query.cursor }),
);
