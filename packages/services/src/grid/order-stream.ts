import { type ExchangeOrder, parseClientOrderId } from '@gridbot/exchange';
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
 * One order update of an account's stream (docs/grid.md#triggers): when it is one of our orders
 * (its clientOrderId is in our table, for a coin bot of this account) and something happened to it
 * that we did not do ourselves in the same breath (a fill, a cancel, an expiry), enqueue that coin
 * bot's reconcile. An order merely accepted (open, nothing filled) is our own placement: the
 * reconcile that sent it records it. The job id names the order's state, so an update is never
 * swallowed by a reconcile of the same coin bot that is already running (BullMQ ignores an id it
 * still holds), while a repeated update of the same state is.
 */
export const reconcileOnOrderUpdate = async (
  ctx: ServiceContext,
  input: {
    exchangeAccountId: number;
    order: Pick<ExchangeOrder, 'id' | 'clientOrderId' | 'status' | 'filled'>;
  },
): Promise<{ coinBotId: number | null }> => {
  const { order: update } = input;
  if (!update.clientOrderId || !parseClientOrderId(update.clientOrderId)) return { coinBotId: null };
  if (update.status === 'open' && update.filled.isZero()) return { coinBotId: null };
  const order = await ctx.prisma.order.findUnique({
    where: { clientOrderId: update.clientOrderId },
    select: { coinBotId: true, coinBot: { select: { exchangeAccountId: true } } },
  });
  if (!order || order.coinBot.exchangeAccountId !== input.exchangeAccountId) return { coinBotId: null };
  await ctx.queue.enqueue(
    reconcileCoinBotJob,
    { coinBotId: order.coinBotId, reason: 'stream' },
    {
      jobId: `${reconcileJobId(order.coinBotId)}-stream-${update.id}-${update.status}-${update.filled.toFixed()}`,
    },
  );
  return { coinBotId: order.coinBotId };
};

/**
 * After an account's stream was down (or nobody followed it: it changed worker), updates sent
 * meanwhile are lost: reconcile every coin bot of the account that runs or has live orders (the
 * sweep would only get to them later). A dropped connection resumes hundreds of accounts at once,
 * so these are catch-up work (docs/grid.md#triggers): low-priority jobs, each delayed at random
 * within `spreadMs`, under a job id of their own (a fill's or a user's trigger is never held back
 * behind a delayed one), paced by the exchange request budget like every reconcile.
 */
export const reconcileAccountCoinBots = async (
  ctx: ServiceContext,
  input: { exchangeAccountId: number; reason: string; spreadMs?: number },
): Promise<{ enqueued: number }> => {
  const bots = await ctx.prisma.coinBot.findMany({
    where: {
      exchangeAccountId: input.exchangeAccountId,
      OR: [{ running: true }, { orders: { some: { status: { in: ['pending', 'open'] } } } }],
    },
    select: { id: true },
  });
  const spreadMs = input.spreadMs ?? 0;
  await ctx.queue.enqueueMany(
    reconcileCoinBotJob,
    bots.map(({ id }) => ({
      payload: { coinBotId: id, reason: input.reason },
      options: {
        jobId: `${reconcileJobId(id)}-resume`,
        low: true,
        ...(spreadMs > 0 ? { delayMs: Math.floor(Math.random() * spreadMs) } : {}),
      },
    })),
  );
  return { enqueued: bots.length };
};
