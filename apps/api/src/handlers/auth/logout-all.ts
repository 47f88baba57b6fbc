import { logoutAll } from '@gridbot/contracts';
import { endUserSessions } from '@gridbot/services';
import { handle } from '../../handle';

export const logoutAllHandler = handle(logoutAll, async (ctx, { session }) => {
  const { endedAt } = await endUserSessions(ctx, { userId: session.userId });
  return { ok: true as const, endedAt: endedAt.toISOString() };
});
