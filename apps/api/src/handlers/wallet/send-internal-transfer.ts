import { sendInternalTransfer } from '@gridbot/contracts';
import { sendTransfer } from '@gridbot/services';
import { handle } from '../../handle';
import { withinRecipientBudget } from '../../plugins/external/rate-limit';

export const sendInternalTransferHandler = handle(
  sendInternalTransfer,
  (ctx, { query, headers, session }, request) =>
    withinRecipientBudget(request, 'transfer', () =>
      sendTransfer(ctx, {
        userId: session.userId,
        toUid: query.to_user,
        summ: query.summ,
        idempotencyKey: headers['idempotency-key'],
      }),
    ),
);
