import { randomBytes } from 'node:crypto';
import type { ServiceContext } from '../context/service-context';

/** The lease was taken over (it expired while this run was slow): stop before touching the exchange. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

/**
 * Single flight per coin bot across every worker and every concurrent job of one worker: a lease
 * row-lock in the database holding a token unique to one reconcile call (works the same on
 * PostgreSQL and PGlite). A crashed holder's lease expires; a slow holder renews it before every
 * exchange write and stops if it was lost.
 */
export const createLease = (ctx: ServiceContext, coinBotId: number, ms: number) => {
  const { prisma, clock } = ctx;
  const token = `${ctx.instanceId}:${randomBytes(6).toString('hex')}`;
  const inMs = (delta: number) => new Date(clock.now().getTime() + delta);
  return {
    token,
    acquire: async () => {
      const taken = await prisma.coinBot.updateMany({
        where: { id: coinBotId, OR: [{ lockUntil: null }, { lockUntil: { lt: clock.now() } }] },
        data: { lockOwner: token, lockUntil: inMs(ms) },
      });
      return taken.count === 1;
    },
    /** Extends the lease; throws LeaseLostError when another run holds it now. */
    renew: async () => {
      const kept = await prisma.coinBot.updateMany({
        where: { id: coinBotId, lockOwner: token, lockUntil: { gt: clock.now() } },
        data: { lockUntil: inMs(ms) },
      });
      if (kept.count !== 1) throw new LeaseLostError(`coin bot ${coinBotId}: lease lost`);
    },
    release: async (reconciled: boolean) => {
      await prisma.coinBot.updateMany({
        where: { id: coinBotId, lockOwner: token },
        data: { lockOwner: null, lockUntil: null, ...(reconciled ? { reconciledAt: clock.now() } : {}) },
      });
    },
  };
};

export type Lease = ReturnType<typeof createLease>;
