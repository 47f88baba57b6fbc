import {
  type ChainContext,
  createTronNodeClient,
  type HotWallet,
  processWithdrawals,
  recordPlatformAddress,
  scanDeposits,
  type TronNodeClient,
} from '@gridbot/services';

export type WatcherOptions = {
  ctx: ChainContext;
  /** The full node / TronGrid base URL (TRON_NODE_URL, or the embedded sandbox node). */
  nodeUrl: string;
  hot: HotWallet;
  /** Pause between passes (WATCHER_INTERVAL_MS). */
  intervalMs: number;
};

export type Watcher = {
  node: TronNodeClient;
  /** Runs one pass now (deposits, then withdrawals), after any pass in progress. */
  runOnce: () => Promise<void>;
  /** Ends the loop; resolves once the pass in progress has finished. */
  stop: () => Promise<void>;
};

/**
 * The watcher loop: every `intervalMs`, scan deposits up to the head and the solidified block, then
 * sign, broadcast and follow withdrawals. One pass at a time; a failed pass (node unreachable,
 * database hiccup) is logged and the next one starts over from the stored cursors and rows, so
 * nothing is kept in memory between passes.
 */
export const startWatcher = (options: WatcherOptions): Watcher => {
  const { ctx, hot } = options;
  const node = createTronNodeClient({
    url: options.nodeUrl,
    apiKey: ctx.env.TRON_API_KEY,
    usdtContract: ctx.env.USDT_CONTRACT,
  });
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  let hotRecorded = false;
  const pass = async () => {
    try {
      if (!hotRecorded) {
        // The platform's own hot wallet is never a withdrawal destination (docs/wallet.md#refused-addresses).
        await recordPlatformAddress(ctx.prisma, { address: hot.address, role: 'hot' });
        hotRecorded = true;
      }
      const deposits = await scanDeposits(ctx, node);
      const withdrawals = await processWithdrawals(ctx, node, hot);
      const moved = deposits.credited + withdrawals.signed + withdrawals.confirmed + withdrawals.failed;
      if (moved > 0) ctx.log.info({ deposits, withdrawals }, 'watcher pass');
    } catch (error) {
      ctx.log.error({ err: error }, 'watcher pass failed');
    }
  };
  const runOnce = () => {
    current = current.then(pass);
    return current;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runOnce().then(schedule);
    }, options.intervalMs);
  };
  void runOnce().then(schedule);
  ctx.log.info({ node: options.nodeUrl, hotWallet: hot.address }, 'watcher started');
  return {
    node,
    runOnce,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
};
