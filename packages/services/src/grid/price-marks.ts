import type { ServiceContext } from '../context/service-context';
import type { PriceRange } from './find-crossed-coin-bots';

/** What a scan saw of one symbol: the last price, and the low and high traded since the last scan when known. */
export type ScannedPrice = { symbol: string; price: string; low?: string; high?: string };

/** When the last scan of each symbol started (absent: never scanned, or before scans kept it). */
export const readScanTimes = async (
  ctx: ServiceContext,
  input: { venue: string; symbols: string[] },
): Promise<Map<string, Date>> => {
  const marks = await ctx.prisma.priceMark.findMany({
    where: { venue: input.venue, symbol: { in: input.symbols } },
    select: { symbol: true, scannedAt: true },
  });
  return new Map(marks.flatMap((m) => (m.scannedAt ? [[m.symbol, m.scannedAt] as const] : [])));
};

/**
 * Records what a venue's scan just saw and returns, per symbol, the range the price moved through
 * since the previous scan (whichever worker ran it): the traded low and high, widened by the
 * previous and the current last price. One statement; the marks and scan times are shared, so the
 * next scan, on any replica, reads from where this one started.
 */
export const advancePriceMarks = async (
  ctx: ServiceContext,
  input: { venue: string; scannedAt: Date; prices: ScannedPrice[] },
): Promise<PriceRange[]> => {
  const { venue, scannedAt, prices } = input;
  if (prices.length === 0) return [];
  const symbols = prices.map((p) => p.symbol);
  const values = prices.map((p) => p.price);
  const lows = prices.map((p) => p.low ?? p.price);
  const highs = prices.map((p) => p.high ?? p.price);
  // Every CTE reads the same snapshot, so `previous` still sees the marks the upsert replaces.
  return ctx.prisma.$queryRaw<PriceRange[]>`
    WITH current AS (
      SELECT * FROM unnest(${symbols}::text[], ${values}::numeric[], ${lows}::numeric[], ${highs}::numeric[])
        AS c(symbol, price, low, high)
    ), previous AS (
      SELECT symbol, price FROM price_marks WHERE venue = ${venue} AND symbol = ANY(${symbols}::text[])
    ), saved AS (
      INSERT INTO price_marks (venue, symbol, price, scanned_at, updated_at)
      SELECT ${venue}, symbol, price, ${scannedAt}::timestamptz, now() FROM current
      ON CONFLICT (venue, symbol) DO UPDATE
        SET price = EXCLUDED.price, scanned_at = EXCLUDED.scanned_at, updated_at = now()
    )
    SELECT c.symbol,
      LEAST(c.low, c.price, COALESCE(p.price, c.price))::text AS low,
      GREATEST(c.high, c.price, COALESCE(p.price, c.price))::text AS high
    FROM current c LEFT JOIN previous p USING (symbol)`;
};
