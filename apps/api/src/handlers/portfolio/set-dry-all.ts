import { setDryAll } from '@gridbot/contracts';
import { setDryAll as setGlobalDry } from '@gridbot/services';
import { handle } from '../../handle';

export const setDryAllHandler = handle(setDryAll, (ctx, { query, session }) =>
  setGlobalDry(ctx, { userId: session.userId, on: query.status }),
);
