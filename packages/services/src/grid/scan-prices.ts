import { reconcileCoinBotJob, reconcileJobId, scanPricesJob } from '@gridbot/jobs';
import type { ServiceContext } from '../context/service-context';
import { findCrossedCoinBots } from './find-crossed-coin-bots';
import { advancePriceMarks } from './price-marks';
import { readTradedRanges } from './traded-ranges';

/** Venues (`<exchange>:<mode>`) and their symbols with running coin bots or resting orders. */
export const listActiveVenues = async (ctx: ServiceContext): Promise<Map<string, string[]>> => {
  const rows = await ctx.prisma.$queryRaw<{ venue: string; symbol: string }[]>`
    SELECT DISTINCT a.exchange || ':' || a.mode AS venue, b.symbol
    FROM coin_bots b JOIN exchange_accounts a ON a.id = b.exchange_account_id
    WHERE b.running OR EXISTS (SELECT 1 FROM orders o WHERE o.coin_bot_id = b.id AND o.status = 'open')`;
  const venues = new Map<string, string[]>();
  for (const row of rows) venues.set(row.venue, [...(venues.get(row.venue) ?? []), row.symbol]);
  return venues;
};

/**
 * One tick of the price-scan schedule: a scan job per active venue. The job id is the venue and
 * the tick, so any number of worker replicas enqueue one scan per venue and tick, not one each.
 * The symbols travel with the job: the scan itself does not ask the database again.
 */
export const enqueuePriceScans = async (
  ctx: ServiceContext,
  input: { intervalMs: number },
): Promise<void> => {
  const tick = Math.floor(ctx.clock.now().getTime() / input.intervalMs);
  for (const [venue, symbols] of await listActiveVenues(ctx)) {
    await ctx.queue.enqueue(
      scanPricesJob,
      { venue, symbols },
      { jobId: `scan-${venue.replace(':', '-')}-${tick}` },
    );
  }
};

/**
 * The public price scan of one venue (docs/grid.md#triggers): one last-prices call, the low and high
 * each symbol traded at since the previous scan (1-second klines, bounded per venue), widened by
 * the previous and current prices (marks kept in the database, so any replica can scan), one
 * crossing query over the resting-order index, one bulk enqueue of reconciles.
 */
export const scanVenuePrices = async (
  ctx: ServiceContext,
  input: { venue: string; symbols: string[] },
): Promise<{ crossed: number[] }> => {
  if (input.symbols.length === 0) return { crossed: [] };
  const scannedAt = ctx.clock.now();
  // One price call per venue and tick, whatever the number of coin bots or symbols (weight 4 on
  // Binance); the traded ranges are per symbol and bounded (docs/grid.md#request-budget).
  const [prices, traded] = await Promise.all([
    ctx.exchanges.forVenue(input.venue).fetchLastPrices(input.symbols),
    readTradedRanges(ctx, { ...input, now: scannedAt }),
  ]);
  const ranges = await advancePriceMarks(ctx, {
    venue: input.venue,
    scannedAt,
    prices: Object.entries(prices).map(([symbol, last]) => {
      const range = traded.get(symbol);
      return {
        symbol,
        price: last.toString(),
        ...(range ? { low: range.low.toString(), high: range.high.toString() } : {}),
      };
    }),
  });
  const crossed = await findCrossedCoinBots(ctx, { ranges });
  await ctx.queue.enqueueMany(
    reconcileCoinBotJob,
    crossed.map((coinBotId) => ({
      payload: { coinBotId, reason: 'price' },
      options: { jobId: reconcileJobId(coinBotId) },
    })),
  );
  return { crossed };
};
