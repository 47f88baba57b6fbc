import { getConfig, setConfig } from '@gridbot/contracts';
import { getUserConfig, setUserConfig } from '@gridbot/services';
import { handle } from '../../handle';

export const getConfigHandler = handle(getConfig, ({ params, session }, request) =>
  getUserConfig(request.server.deps.prisma, session.userId, params.name),
);

export const setConfigHandler = handle(setConfig, ({ params, query, session }, request) =>
  setUserConfig(request.server.deps.prisma, session.userId, params.name, query.data),
);
