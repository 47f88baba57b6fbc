import { getReferralBonusDetail } from '@gridbot/contracts';
import { getReferralBonusDetail as read } from '@gridbot/services';
import { handle } from '../../handle';

export const getReferralBonusDetailHandler = handle(getReferralBonusDetail, (ctx, { query, session }) =>
  read(ctx, { userId: session.userId, date: query.date }),
);
