import { liftFreeze } from '@gridbot/contracts';
import { liftFreeze as lift } from '@gridbot/services';
import { handle } from '../../handle';

export const liftFreezeHandler = handle(liftFreeze, (ctx, { session }) =>
  lift(ctx, { userId: session.userId, by: 'user:app', asOperator: false }),
);
