import { withdrawMoney } from '@gridbot/contracts';
import { requestWithdrawal } from '@gridbot/services';
import { handle } from '../../handle';

export const withdrawMoneyHandler = handle(withdrawMoney, (ctx, { query, headers, session }) =>
  requestWithdrawal(ctx, {
    userId: session.userId,
    summ: query.summ,
    to: query.to,
    exchange: query.exchange,
    idempotencyKey: headers['idempotency-key'],
  }),
);
