import { topUpFeeBalance } from '@gridbot/contracts';
import { moveToFeeBalance } from '@gridbot/services';
import { handle } from '../../handle';

export const topUpFeeBalanceHandler = handle(topUpFeeBalance, (ctx, { query, headers, session }) =>
  moveToFeeBalance(ctx, {
    userId: session.userId,
    summ: query.summ,
    idempotencyKey: headers['idempotency-key'],
  }),
);
