import { activateCoins } from '@gridbot/contracts';
import { activateCoins as activateAllCoins } from '@gridbot/services';
import { handle } from '../../handle';

export const activateCoinsHandler = handle(activateCoins, (ctx, { query, session }) =>
  activateAllCoins(ctx, { userId: session.userId, active: query.status }),
);
