import { listCoinTrades } from '@gridbot/contracts';
import { listPortfolioCoinTrades } from '@gridbot/services';
import { handle } from '../../handle';

export const listCoinTradesHandler = handle(listCoinTrades, (ctx, { query, session }) =>
  listPortfolioCoinTrades(ctx, {
    userId: session.userId,
    coinBotId: query.coin_user_id,
    status: query.status,
    page: query.page,
    limit: query.limit,
    cursor: query.cursor,
  }),
);
