import { pauseTrading } from '@gridbot/contracts';
import { pauseTrading as pauseCoinBots } from '@gridbot/services';
import { handle } from '../../handle';

export const pauseTradingHandler = handle(pauseTrading, (ctx, { query, session }) =>
  pauseCoinBots(ctx, { userId: session.userId, coin: query.coin_name, exchange: query.exchange }),
);
