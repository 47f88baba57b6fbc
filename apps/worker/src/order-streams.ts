import {
  listStreamedAccounts,
  reconcileAccountCoinBots,
  reconcileOnOrderUpdate,
  type ServiceContext,
} from '@gridbot/services';

type OpenStream = { keysVersion: string; stop: () => Promise<void> };

/**
 * The order-stream listener (docs/grid.md#triggers): one user data stream per exchange account the
 * services list, each update handed to `reconcileOnOrderUpdate`. Transport only: which accounts to
 * follow and which coin bot an update belongs to are the services'. The set is refreshed every
 * `refreshMs` (accounts start and stop trading, keys change). Every replica follows every account:
 * duplicates are harmless (docs/decisions.md, "Order streams").
 */
export const startOrderStreams = (ctx: ServiceContext, options: { refreshMs: number }) => {
  const open = new Map<number, OpenStream>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const follow = async (exchangeAccountId: number, keysVersion: string): Promise<OpenStream> => {
    const client = await ctx.exchanges.forAccount(exchangeAccountId);
    const stop = client.streamOrderUpdates({
      onUpdate: (order) => {
        reconcileOnOrderUpdate(ctx, { exchangeAccountId, order }).catch((error: unknown) =>
          ctx.log.warn({ err: error, exchangeAccountId }, 'order update not handled'),
        );
      },
      onSubscribed: ({ resumed }) => {
        if (!resumed) return;
        reconcileAccountCoinBots(ctx, { exchangeAccountId, reason: 'stream-resumed' }).catch(
          (error: unknown) =>
            ctx.log.warn({ err: error, exchangeAccountId }, 'reconciles after a stream gap not enqueued'),
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

  const refresh = async () => {
    const wanted = new Map(
      (await listStreamedAccounts(ctx)).map((a) => [a.exchangeAccountId, a.keysVersion] as const),
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
        open.set(id, await follow(id, keysVersion));
      } catch (error) {
        ctx.log.warn({ err: error, exchangeAccountId: id }, `order stream of account ${id} not opened`);
      }
    }
  };

  const run = () => {
    if (stopped) return;
    refresh()
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'order streams not refreshed'))
      .finally(() => {
        if (!stopped) timer = setTimeout(run, options.refreshMs);
      });
  };
  run();

  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      const streams = [...open.values()];
      open.clear();
      await Promise.all(streams.map((s) => s.stop()));
    },
  };
};
