import { getDailyCoinsPnl } from '@gridbot/contracts';
import { getDailyCoinsPnl as dailyCoins } from '@gridbot/services';
import { handle } from '../../handle';

export const getDailyCoinsPnlHandler = handle(getDailyCoinsPnl, (ctx, { query, session }) =>
  dailyCoins(ctx, { userId: session.userId, day: query.target_date }),
);
