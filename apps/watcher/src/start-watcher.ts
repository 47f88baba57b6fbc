import { provideReadinessDetail } from '@gridbot/runtime';
import {
  type ChainContext,
  checkHotWallet,
  createTronNodeClient,
  type HotWallet,
  hotWalletDetail,
  lastHotWalletReading,
  processWithdrawals,
  recordPlatformAddress,
  scanDeposits,
  TronNodeBusyError,
  type TronNodeClient,
} from '@gridbot/services';
import { startPassLoop } from './pass-loop';

export type WatcherOptions = {
  ctx: ChainContext;
  /** The full node / TronGrid base URL (TRON_NODE_URL, or the embedded sandbox node). */
  nodeUrl: string;
  hot: HotWallet;
  /** Pause between passes (WATCHER_INTERVAL_MS). */
  intervalMs: number;
  /** Blocks read per phase and pass when catching up (default WATCHER_BATCH_BLOCKS). */
  batchBlocks?: number;
};

export type Watcher = {
  node: TronNodeClient;
  /** Runs one pass now (deposits, then withdrawals), after any pass in progress. */
  runOnce: () => Promise<void>;
  /** Ends the loop; resolves once the pass in progress has finished. */
  stop: () => Promise<void>;
};

/**
 * The watcher loop: every `intervalMs`, read the head and solidified heights once, scan deposits up
 * to them, then sign, broadcast and follow withdrawals, then look at the hot wallet when its last
 * reading is old. One pass at a time; a failed pass (node unreachable, database hiccup) is logged
 * and the next one starts over from the stored cursors and rows, so nothing is kept in memory
 * between passes. When the node refuses for its request budget (TronGrid's 429 / 403 / 503), the
 * pass ends, the wait is logged once, and passes send nothing until it is over
 * (docs/wallet.md#within-trongrids-budget).
 */
export const startWatcher = (options: WatcherOptions): Watcher => {
  const { ctx, hot } = options;
  const node = createTronNodeClient({
    url: options.nodeUrl,
    apiKey: ctx.env.TRON_API_KEY,
    usdtContract: ctx.env.USDT_CONTRACT,
  });
  let waitLogged = 0;

  let hotRecorded = false;
  const pass = async () => {
    if (node.resumeAt() > Date.now()) return;
    try {
      if (!hotRecorded) {
        // The platform's own hot wallet is never a withdrawal destination (docs/wallet.md#refused-addresses).
        await recordPlatformAddress(ctx.prisma, { address: hot.address, role: 'hot' });
        hotRecorded = true;
      }
      const tip = await node.chainTip();
      const maxBlocks = options.batchBlocks ?? ctx.env.WATCHER_BATCH_BLOCKS;
      const deposits = await scanDeposits(ctx, node, { tip, maxBlocks });
      const withdrawals = await processWithdrawals(ctx, node, hot, { tip });
      // docs/operations.md#hot-wallet: read at most every HOT_WALLET_CHECK_MS (signing reads it too).
      await checkHotWallet(ctx, node, hot.address);
      const moved = deposits.credited + withdrawals.signed + withdrawals.confirmed + withdrawals.failed;
      if (moved > 0) ctx.log.info({ deposits, withdrawals }, 'watcher pass');
    } catch (error) {
      const resumeAt = node.resumeAt();
      if (!(error instanceof TronNodeBusyError) && resumeAt <= Date.now()) {
        ctx.log.error({ err: error }, 'watcher pass failed');
        return;
      }
      if (resumeAt === waitLogged) return;
      waitLogged = resumeAt;
      ctx.log.warn(
        {
          status: error instanceof TronNodeBusyError ? error.status : undefined,
          resumeAt: new Date(resumeAt).toISOString(),
          waitMs: Math.max(0, resumeAt - Date.now()),
        },
        'the TRON node refused for its request budget: no request until the wait is over',
      );
    }
  };
  const loop = startPassLoop(pass, options.intervalMs);
  // /readyz's detail: the hot wallet as last read (in the embedded process, on the API's port too).
  const withdrawDetail = provideReadinessDetail('hotWallet', () => hotWalletDetail(lastHotWalletReading()));
  ctx.log.info({ node: options.nodeUrl, hotWallet: hot.address }, 'watcher started');
  return {
    node,
    runOnce: loop.runOnce,
    stop: async () => {
      withdrawDetail();
      await loop.stop();
    },
  };
};
