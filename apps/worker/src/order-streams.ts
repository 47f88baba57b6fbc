import {
  listStreamedAccounts,
  ownerOf,
  reconcileAccountCoinBots,
  reconcileOnOrderUpdate,
  type ServiceContext,
  type StreamedAccount,
} from '@gridbot/services';

type OpenStream = { keysVersion: string; stop: () => Promise<void> };

/** The group the workers beat in (ctx.membership) to share the accounts' order streams. */
export const ORDER_STREAM_GROUP = 'order-streams';

export type OrderStreamOptions = {
  /** How often the accounts that need a stream are looked up again (they start and stop trading, keys change). */
  refreshMs: number;
  /**
   * How often this worker says it is alive and reads who else is (default 5 s); a worker that has
   * not beaten for three of these is gone and its accounts move to the others.
   */
  beatMs?: number;
  /**
   * The reconciles of an account whose stream resumed start at random within this window (default
   * 10 s): a dropped connection resumes up to a few hundred accounts at once.
   */
  resumeSpreadMs?: number;
};

/**
 * The order-stream listener (docs/grid.md#triggers, docs/fleet.md#order-streams): one order stream
 * per exchange account the services list (on Binance a user data subscription, many accounts
 * sharing one WebSocket API connection of the process: packages/exchange user-data-streams.ts; on
 * Bybit and OKX a private connection per account: venue-streams/), each update handed to
 * `reconcileOnOrderUpdate`.
 * The live workers share the accounts by rendezvous hashing over the members of
 * `ORDER_STREAM_GROUP`: each follows the accounts it owns, so an update is handled once in the
 * fleet, not once per worker. When a worker dies (no beat for 3 × `beatMs`) or joins, accounts
 * change owner; the new owner reconciles each account it takes over once its stream is
 * subscribed, so a fill that happened while nobody followed the account is not left waiting for
 * the sweep. If the membership cannot be read (Redis down), every worker follows every account
 * until it can: duplicates are harmless (docs/decisions.md, "Order streams"), gaps are not.
 */
export const startOrderStreams = (ctx: ServiceContext, options: OrderStreamOptions) => {
  const beatMs = options.beatMs ?? 5_000;
  const resumeSpreadMs = options.resumeSpreadMs ?? 10_000;
  const open = new Map<number, OpenStream>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let accounts: StreamedAccount[] = [];
  let listedAt = Number.NEGATIVE_INFINITY;
  let members: string[] | undefined;
  let applied = false;
  let membershipFailing = false;

  const follow = async (
    exchangeAccountId: number,
    keysVersion: string,
    takenOver: boolean,
  ): Promise<OpenStream> => {
    const client = await ctx.exchanges.forAccount(exchangeAccountId);
    // A venue whose stream we do not follow yet: its coin bots are reconciled by the sweep alone.
    if (!client.capabilities.orderStream) return { keysVersion, stop: async () => undefined };
    let reconcileOnSubscribe = takenOver;
    const stop = client.streamOrderUpdates({
      onUpdate: (order) => {
        reconcileOnOrderUpdate(ctx, { exchangeAccountId, order }).catch((error: unknown) =>
          ctx.log.warn({ err: error, exchangeAccountId }, 'order update not handled'),
        );
      },
      onSubscribed: ({ resumed }) => {
        if (!resumed && !reconcileOnSubscribe) return;
        const reason = resumed ? 'stream-resumed' : 'stream-taken-over';
        reconcileOnSubscribe = false;
        reconcileAccountCoinBots(ctx, { exchangeAccountId, reason, spreadMs: resumeSpreadMs }).catch(
          (error: unknown) =>
            ctx.log.warn({ err: error, exchangeAccountId }, `reconciles after a ${reason} not enqueued`),
        );
      },
      onError: (error) =>
        ctx.log.warn(
          { err: error, exchangeAccountId },
          `order stream of account ${exchangeAccountId} failed, reconnecting`,
        ),
    });
    return { keysVersion, stop };
  };

  /** The live workers, this one included; undefined when they cannot be read (follow everything). */
  const beat = async (): Promise<string[] | undefined> => {
    try {
      const live = await ctx.membership.beat(ORDER_STREAM_GROUP, ctx.instanceId, beatMs * 3);
      if (membershipFailing) ctx.log.info('order streams: membership readable again, sharing the accounts');
      membershipFailing = false;
      return live;
    } catch (error) {
      if (!membershipFailing)
        ctx.log.warn({ err: error }, 'order streams: membership unreadable, following every account');
      membershipFailing = true;
      return undefined;
    }
  };

  const apply = async () => {
    const mine = (id: number) => !members || ownerOf(String(id), members) === ctx.instanceId;
    const wanted = new Map(
      accounts
        .filter((a) => mine(a.exchangeAccountId))
        .map((a) => [a.exchangeAccountId, a.keysVersion] as const),
    );
    for (const [id, stream] of open) {
      if (wanted.get(id) === stream.keysVersion) continue;
      open.delete(id);
      await stream.stop();
    }
    for (const [id, keysVersion] of wanted) {
      if (stopped || open.has(id)) continue;
      // One account whose keys cannot be opened must not keep the others from streaming.
      try {
        open.set(id, await follow(id, keysVersion, applied));
      } catch (error) {
        ctx.log.warn({ err: error, exchangeAccountId: id }, `order stream of account ${id} not opened`);
      }
    }
    applied = true;
  };

  const tick = async () => {
    const live = await beat();
    const membersChanged = live?.join('\n') !== members?.join('\n');
    members = live;
    const listDue = performance.now() - listedAt >= options.refreshMs;
    if (listDue) {
      accounts = await listStreamedAccounts(ctx);
      listedAt = performance.now();
    }
    if (listDue || membersChanged) await apply();
  };

  const run = () => {
    if (stopped) return;
    tick()
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'order streams not refreshed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(run, Math.min(beatMs, options.refreshMs));
      });
  };
  run();

  return {
    /** The accounts this worker follows now (for tests and the operator). */
    following: () => [...open.keys()],
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      // Leave first: the others take this worker's accounts at their next beat, not after the TTL.
      await ctx.membership.leave(ORDER_STREAM_GROUP, ctx.instanceId).catch(() => undefined);
      const streams = [...open.values()];
      open.clear();
      await Promise.all(streams.map((s) => s.stop()));
    },
  };
};
