import { deleteCoin } from '@gridbot/contracts';
import { deletePortfolioCoin } from '@gridbot/services';
import { handle } from '../../handle';

export const deleteCoinHandler = handle(deleteCoin, (ctx, { query, session }) =>
  deletePortfolioCoin(ctx, { userId: session.userId, coin: query.data_send, exchange: query.exchange }),
);
