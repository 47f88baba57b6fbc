import { getRewards } from '@gridbot/contracts';
import { getPartnerRewards } from '@gridbot/services';
import { handle } from '../../handle';

export const getRewardsHandler = handle(getRewards, (ctx, { query, session }) =>
  getPartnerRewards(ctx, { userId: session.userId, period: query.period }),
);
