import { parseClientOrderId } from '@gridbot/exchange';
import { reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import type { ServiceContext } from '../context/service-context';

/** An exchange account whose own order updates are worth following, and the version of its keys. */
export type StreamedAccount = { exchangeAccountId: number; keysVersion: string };

/**
 * The accounts to follow over the exchange's user data stream (docs/grid.md#triggers): those with a
 * running coin bot or a live (pending or open) order, the same set the price scan covers. Only
 * trading keys: a read-only key cannot have placed our orders. `keysVersion` changes with the keys,
 * so a stream opened with old keys is replaced.
 */
export const listStreamedAccounts = async (ctx: ServiceContext): Promise<StreamedAccount[]> => {
  const accounts = await ctx.prisma.exchangeAccount.findMany({
    where: {
      coinBots: {
        some: { OR: [{ running: true }, { orders: { some: { status: { in: ['pending', 'open'] } } } }] },
      },
    },
    select: { id: true, updatedAt: true },
    orderBy: { id: 'asc' },
  });
  return accounts.map((a) => ({ exchangeAccountId: a.id, keysVersion: a.updatedAt.toISOString() }));
};

/**
 * One order update of an account's stream: when it is one of our orders (its clientOrderId is in
 * our table, for a coin bot of this account), enqueue that coin bot's reconcile, with the same job
 * id as the scan's so that a burst of updates (new, partial fills, fill) makes one reconcile.
 * Anything else on the account (a manual order, another installation's) is ignored.
 */
export const reconcileOnOrderUpdate = async (
  ctx: ServiceContext,
  input: { exchangeAccountId: number; clientOrderId: string | null },
): Promise<{ coinBotId: number | null }> => {
  if (!input.clientOrderId || !parseClientOrderId(input.clientOrderId)) return { coinBotId: null };
  const order = await ctx.prisma.order.findUnique({
    where: { clientOrderId: input.clientOrderId },
    select: { coinBotId: true, coinBot: { select: { exchangeAccountId: true } } },
  });
  if (!order || order.coinBot.exchangeAccountId !== input.exchangeAccountId) return { coinBotId: null };
  await ctx.queue.enqueue(
    reconcileCoinBotJob,
    { coinBotId: order.coinBotId, reason: 'stream' },
    { jobId: reconcileJobId(order.coinBotId) },
  );
  return { coinBotId: order.coinBotId };
};

/**
 * After an account's stream was down, updates sent meanwhile are lost: reconcile every coin bot of
 * the account that runs or has live orders (the sweep would only get to them later).
 */
export const reconcileAccountCoinBots = async (
  ctx: ServiceContext,
  input: { exchangeAccountId: number; reason: string },
): Promise<{ enqueued: number }> => {
  const bots = await ctx.prisma.coinBot.findMany({
    where: {
      exchangeAccountId: input.exchangeAccountId,
      OR: [{ running: true }, { orders: { some: { status: { in: ['pending', 'open'] } } } }],
    },
    select: { id: true },
  });
  await ctx.queue.enqueueMany(
    reconcileCoinBotJob,
    bots.map(({ id }) => ({
      payload: { coinBotId: id, reason: input.reason },
      options: { jobId: reconcileJobId(id) },
    })),
  );
  return { enqueued: bots.length };
};
