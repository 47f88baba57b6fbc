import { getNetworkExpansion } from '@gridbot/contracts';
import { getNetworkExpansion as read } from '@gridbot/services';
import { handle } from '../../handle';

export const getNetworkExpansionHandler = handle(getNetworkExpansion, (ctx, { query, session }) =>
  read(ctx, { userId: session.userId, period: query.period }),
);
