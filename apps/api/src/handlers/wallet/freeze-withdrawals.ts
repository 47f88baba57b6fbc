import { freezeWithdrawals } from '@gridbot/contracts';
import { freezeWithdrawals as freeze } from '@gridbot/services';
import { handle } from '../../handle';

export const freezeWithdrawalsHandler = handle(freezeWithdrawals, async (ctx, { session }) => {
  const result = await freeze(ctx, { userId: session.userId, by: 'user:app' });
  return {
    frozen: { since: result.freeze.since, liftableFrom: result.freeze.liftableFrom },
    frozenNow: result.frozen,
    stopped: result.stopped,
  };
});
