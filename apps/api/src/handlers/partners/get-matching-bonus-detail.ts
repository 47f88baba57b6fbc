import { getMatchingBonusDetail } from '@gridbot/contracts';
import { getMatchingBonusDetail as read } from '@gridbot/services';
import { handle } from '../../handle';

export const getMatchingBonusDetailHandler = handle(getMatchingBonusDetail, (ctx, { query, session }) =>
  read(ctx, { userId: session.userId, date: query.date }),
);
