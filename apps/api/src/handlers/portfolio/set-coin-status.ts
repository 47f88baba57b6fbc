import { setCoinStatus } from '@gridbot/contracts';
import { setCoinMode } from '@gridbot/services';
import { handle } from '../../handle';

export const setCoinStatusHandler = handle(setCoinStatus, (ctx, { query, session }) =>
  setCoinMode(ctx, {
    userId: session.userId,
    coin: query.coin_name,
    exchange: query.exchange,
    mode: query.status,
  }),
);
