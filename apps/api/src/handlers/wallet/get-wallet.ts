import { getWallet } from '@gridbot/contracts';
import { getWalletOverview } from '@gridbot/services';
import { handle } from '../../handle';

export const getWalletHandler = handle(getWallet, (ctx, { query, session }) =>
  getWalletOverview(ctx, {
    userId: session.userId,
    days: query.days,
    page: query.page,
    limit: query.limit,
    cursor: query.cursor,
    type: query.type,
  }),
);
