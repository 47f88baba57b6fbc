import { listMatchingBonusHistory } from '@gridbot/contracts';
import { listMatchingBonusHistory as list } from '@gridbot/services';
import { handle } from '../../handle';

export const listMatchingBonusHistoryHandler = handle(listMatchingBonusHistory, (ctx, { query, session }) =>
  list(ctx, { userId: session.userId, page: query.page, limit: query.limit, cursor: query.cursor }),
);
