import { listReferralBonusHistory } from '@gridbot/contracts';
import { listReferralBonusHistory as list } from '@gridbot/services';
import { handle } from '../../handle';

export const listReferralBonusHistoryHandler = handle(listReferralBonusHistory, (ctx, { query, session }) =>
  list(ctx, { userId: session.userId, page: query.page, limit: query.limit, cursor: query.cursor }),
);
