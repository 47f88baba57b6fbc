import type { ServiceContext } from '../context/service-context';
import type { PriceRange } from './find-crossed-coin-bots';

/**
 * Records the prices a venue's scan just saw and returns, per symbol, the range the price moved
 * through since the previous scan (whichever worker ran it): one statement, the marks are shared.
 */
export const advancePriceMarks = async (
  ctx: ServiceContext,
  input: { venue: string; prices: { symbol: string; price: string }[] },
): Promise<PriceRange[]> => {
  const { venue, prices } = input;
  if (prices.length === 0) return [];
  const symbols = prices.map((p) => p.symbol);
  const values = prices.map((p) => p.price);
  // Every CTE reads the same snapshot, so `previous` still sees the marks the upsert replaces.
  return ctx.prisma.$queryRaw<PriceRange[]>`
    WITH current AS (
      SELECT * FROM unnest(${symbols}::text[], ${values}::numeric[]) AS c(symbol, price)
    ), previous AS (
      SELECT symbol, price FROM price_marks WHERE venue = ${venue} AND symbol = ANY(${symbols}::text[])
    ), saved AS (
      INSERT INTO price_marks (venue, symbol, price, updated_at)
      SELECT ${venue}, symbol, price, now() FROM current
      ON CONFLICT (venue, symbol) DO UPDATE SET price = EXCLUDED.price, updated_at = now()
    )
    SELECT c.symbol,
      LEAST(c.price, COALESCE(p.price, c.price))::text AS low,
      GREATEST(c.price, COALESCE(p.price, c.price))::text AS high
    FROM current c LEFT JOIN previous p USING (symbol)`;
};
