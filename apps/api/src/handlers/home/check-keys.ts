import { checkKeys } from '@gridbot/contracts';
import { checkExchangeKeys } from '@gridbot/services';
import { handle } from '../../handle';

export const checkKeysHandler = handle(checkKeys, (ctx, { session, query }) =>
  checkExchangeKeys(ctx, { userId: session.userId, exchange: query.exchange }),
);
