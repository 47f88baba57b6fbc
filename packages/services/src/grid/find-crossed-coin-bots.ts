import type { ServiceContext } from '../context/service-context';

/** The price range a symbol traded in since the previous scan (a ticker gives low = high = last). */
export type PriceRange = { symbol: string; low: string; high: string };

/**
 * Coin bots with a resting order the price crossed (docs/grid.md): buys at or above the low, sells at
 * or below the high. One statement for every symbol; per symbol two range scans on the
 * (symbol, status, side, price) index, so the cost follows the crossings, not the number of bots.
 */
export const findCrossedCoinBots = async (
  ctx: ServiceContext,
  input: { ranges: PriceRange[] },
): Promise<number[]> => {
  const { ranges } = input;
  if (ranges.length === 0) return [];
  const symbols = ranges.map((r) => r.symbol);
  const lows = ranges.map((r) => r.low);
  const highs = ranges.map((r) => r.high);
  const rows = await ctx.prisma.$queryRaw<{ coin_bot_id: number }[]>`
    SELECT DISTINCT crossed.coin_bot_id
    FROM unnest(${symbols}::text[], ${lows}::numeric[], ${highs}::numeric[]) AS m(symbol, low, high)
    CROSS JOIN LATERAL (
      (SELECT o.coin_bot_id FROM orders o
        WHERE o.symbol = m.symbol AND o.status = 'open' AND o.side = 'buy' AND o.price >= m.low)
      UNION ALL
      (SELECT o.coin_bot_id FROM orders o
        WHERE o.symbol = m.symbol AND o.status = 'open' AND o.side = 'sell' AND o.price <= m.high)
    ) AS crossed`;
  return rows.map((row) => Number(row.coin_bot_id));
};
