import { startTrading } from '@gridbot/contracts';
import { startTrading as startCoinBots } from '@gridbot/services';
import { handle } from '../../handle';

export const startTradingHandler = handle(startTrading, (ctx, { query, session }) =>
  startCoinBots(ctx, { userId: session.userId, coin: query.coin_name, exchange: query.exchange }),
);
