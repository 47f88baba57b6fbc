import { listCoinActivity } from '@gridbot/contracts';
import { listPortfolioCoinActivity } from '@gridbot/services';
import { handle } from '../../handle';

export const listCoinActivityHandler = handle(listCoinActivity, (ctx, { query, session }) =>
  listPortfolioCoinActivity(ctx, {
    userId: session.userId,
    coinBotId: query.coin_user_id,
    cursor: query.cursor,
    limit: query.limit,
  }),
);
