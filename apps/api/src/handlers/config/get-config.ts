import { getConfig } from '@gridbot/contracts';
import { getUserConfig } from '@gridbot/services';
import { handle } from '../../handle';

export const getConfigHandler = handle(getConfig, (ctx, { params, session }) =>
  getUserConfig(ctx, { userId: session.userId, name: params.name }),
);
