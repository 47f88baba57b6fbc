import { closeAllDeals } from '@gridbot/contracts';
import { closeAllDealsNow } from '@gridbot/services';
import { handle } from '../../handle';

export const closeAllDealsHandler = handle(closeAllDeals, (ctx, { query, headers, session }) =>
  closeAllDealsNow(ctx, {
    userId: session.userId,
    coinBotId: query.coin_user_id,
    idempotencyKey: headers['idempotency-key'],
  }),
);
