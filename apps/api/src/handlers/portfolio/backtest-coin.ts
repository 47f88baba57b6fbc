import { backtestCoin } from '@gridbot/contracts';
import { backtestCoin as runBacktest } from '@gridbot/services';
import { handle } from '../../handle';

export const backtestCoinHandler = handle(backtestCoin, (ctx, { body, session }) =>
  runBacktest(ctx, { userId: session.userId, ...body }),
);
