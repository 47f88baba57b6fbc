// Deals for `POST /portfolio/trades`: each user's first coin bot (of seedPanel's) becomes a coin the
// sandbox exchange lists (so open lots are priced with a real tickers call, as in production) and
// gets CLOSED_LOTS closed lots next to its open ones. Prices and amounts are SQL numerics.
import type { PrismaClient } from '@gridbot/db';

const CLOSED_LOTS = 2;

/** Each user's first coin bot id, by user id. */
export const seedDeals = async (
  prisma: PrismaClient,
  market: { coin: string; symbol: string },
  openLots: number,
): Promise<Map<number, number>> => {
  const first = await prisma.$queryRawUnsafe<Array<{ user_id: number; id: number }>>(
    'SELECT user_id, min(id) AS id FROM coin_bots GROUP BY user_id',
  );
  const ids = first.map((row) => row.id);
  await prisma.$executeRawUnsafe(
    'UPDATE coin_bots SET coin = $1, symbol = $2, next_seq = $3 WHERE id = ANY($4::int[])',
    market.coin,
    market.symbol,
    openLots + CLOSED_LOTS + 1,
    ids,
  );
  await prisma.$executeRawUnsafe(
    `INSERT INTO lots (coin_bot_id, seq, buy_price, qty, cost, opened_at, sell_price, proceeds, pnl, realized_pnl, closed_at)
     SELECT b, ${openLots} + s, 1, 10, 10.01, now() - interval '2 days', 1.01, 10.09, 0.08, 0.08, now() - s * interval '1 hour'
       FROM unnest($1::int[]) b, generate_series(1, ${CLOSED_LOTS}) s`,
    ids,
  );
  await prisma.$executeRawUnsafe('ANALYZE lots');
  return new Map(first.map((row) => [row.user_id, row.id]));
};
