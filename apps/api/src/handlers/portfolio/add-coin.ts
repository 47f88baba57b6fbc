import { addCoin } from '@gridbot/contracts';
import { addPortfolioCoin } from '@gridbot/services';
import { handle } from '../../handle';

export const addCoinHandler = handle(addCoin, (ctx, { query, session }) =>
  addPortfolioCoin(ctx, { userId: session.userId, coin: query.data_send, exchange: query.exchange }),
);
