import { cancelPendingBuy } from '@gridbot/contracts';
import { cancelPendingBuyNow } from '@gridbot/services';
import { handle } from '../../handle';

export const cancelPendingBuyHandler = handle(cancelPendingBuy, (ctx, { query, headers, session }) =>
  cancelPendingBuyNow(ctx, {
    userId: session.userId,
    coinBotId: query.coin_user_id,
    idempotencyKey: headers['idempotency-key'],
  }),
);
