import { sellDeal } from '@gridbot/contracts';
import { sellDealNow } from '@gridbot/services';
import { handle } from '../../handle';

export const sellDealHandler = handle(sellDeal, (ctx, { query, headers, session }) =>
  sellDealNow(ctx, {
    userId: session.userId,
    coinBotId: query.coin_user_id,
    lot: query.lot,
    idempotencyKey: headers['idempotency-key'],
  }),
);
