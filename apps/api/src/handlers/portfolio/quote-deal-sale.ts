import { quoteDealSale } from '@gridbot/contracts';
import { quoteDealSaleNow } from '@gridbot/services';
import { handle } from '../../handle';

export const quoteDealSaleHandler = handle(quoteDealSale, (ctx, { query, session }) =>
  quoteDealSaleNow(ctx, { userId: session.userId, coinBotId: query.coin_user_id, lot: query.lot }),
);
