import { setConfig } from '@gridbot/contracts';
import { setUserConfig } from '@gridbot/services';
import { handle } from '../../handle';

export const setConfigHandler = handle(setConfig, (ctx, { params, query, session }) =>
  setUserConfig(ctx, { userId: session.userId, name: params.name, value: query.data }),
);
