import { type TradedRange, venueWaitOf } from '@gridbot/exchange';
import type { ServiceContext } from '../context/service-context';
import { readScanTimes } from './price-marks';

/**
 * Read from a second before the last scan started: a kline covers its whole second, and the
 * exchange's clock may run up to a second ahead of ours. Overlap only finds a crossing twice,
 * which costs one reconcile that changes nothing.
 */
const OVERLAP_MS = 1000;
/** Never further back than this (a scan that was down for longer leaves the gap to the sweep). */
const MAX_LOOKBACK_MS = 10 * 60_000;

const SECOND = 1000;

/** Runs `task` over `items`, at most `limit` at a time. */
const forEachLimited = async <T>(items: T[], limit: number, task: (item: T) => Promise<void>) => {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
};

/**
 * The low and high each symbol traded at since its last scan (docs/grid.md#triggers): 1-second
 * klines (or public trades) per symbol, `SCAN_RANGE_CONCURRENCY` requests at a time. A venue with
 * more than `SCAN_RANGE_MAX_SYMBOLS` active symbols gets none (its scan falls back to the ticker
 * range, keeping the request weight bounded), and neither does a symbol never scanned or whose
 * request failed.
 */
export const readTradedRanges = async (
  ctx: ServiceContext,
  input: { venue: string; symbols: string[]; now: Date },
): Promise<Map<string, TradedRange>> => {
  const ranges = new Map<string, TradedRange>();
  if (input.symbols.length > ctx.env.SCAN_RANGE_MAX_SYMBOLS) return ranges;
  const scanned = await readScanTimes(ctx, { venue: input.venue, symbols: input.symbols });
  const oldest = input.now.getTime() - MAX_LOOKBACK_MS;
  const client = ctx.exchanges.forVenue(input.venue);
  // A scan without room in the request budget stops asking: the ticker range serves this tick.
  let refused = false;
  await forEachLimited([...scanned], ctx.env.SCAN_RANGE_CONCURRENCY, async ([symbol, at]) => {
    if (refused) return;
    const from = Math.max(at.getTime() - OVERLAP_MS, oldest);
    try {
      const range = await client.fetchTradedRange(symbol, from - (from % SECOND));
      if (range) ranges.set(symbol, range);
    } catch (error) {
      if (venueWaitOf(error)) {
        refused = true;
        return;
      }
      ctx.log.warn(
        { venue: input.venue, symbol, error: String(error) },
        'price scan: traded range unavailable, the ticker range is used',
      );
    }
  });
  return ranges;
};
