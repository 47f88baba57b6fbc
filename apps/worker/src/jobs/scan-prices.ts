import type { PrismaClient } from '@gridbot/db';
import { type JobQueue, reconcileCoinBotJob, reconcileJobId, scanPricesJob } from '@gridbot/jobs';
import { type ExchangeClients, findCrossedCoinBots, type PriceRange } from '@gridbot/services';
import Decimal from 'decimal.js';

/** Venues (`<exchange>:<mode>`) and their symbols with running coin bots or resting orders. */
export const activeVenues = async (prisma: PrismaClient): Promise<Map<string, string[]>> => {
  const rows = await prisma.$queryRaw<{ venue: string; symbol: string }[]>`
    SELECT DISTINCT a.exchange || ':' || a.mode AS venue, b.symbol
    FROM coin_bots b JOIN exchange_accounts a ON a.id = b.exchange_account_id
    WHERE b.running OR EXISTS (SELECT 1 FROM orders o WHERE o.coin_bot_id = b.id AND o.status = 'open')`;
  const venues = new Map<string, string[]>();
  for (const row of rows) venues.set(row.venue, [...(venues.get(row.venue) ?? []), row.symbol]);
  return venues;
};

/**
 * The public price scan of one venue (DESIGN §3 trigger a): one tickers call, the range each symbol
 * moved through since the previous scan, one crossing query, one bulk enqueue.
 */
export const registerScanPrices = (queue: JobQueue, prisma: PrismaClient, clients: ExchangeClients) => {
  const previous = new Map<string, Decimal>();
  queue.process(scanPricesJob, async ({ venue }) => {
    const symbols = (await activeVenues(prisma)).get(venue) ?? [];
    if (symbols.length === 0) return;
    const tickers = await clients.forVenue(venue).fetchTickers(symbols);
    const ranges: PriceRange[] = [];
    for (const [symbol, ticker] of Object.entries(tickers)) {
      const key = `${venue}|${symbol}`;
      const before = previous.get(key) ?? ticker.last;
      previous.set(key, ticker.last);
      ranges.push({
        symbol,
        low: Decimal.min(before, ticker.last).toString(),
        high: Decimal.max(before, ticker.last).toString(),
      });
    }
    const crossed = await findCrossedCoinBots(prisma, ranges);
    await queue.enqueueMany(
      reconcileCoinBotJob,
      crossed.map((coinBotId) => ({
        payload: { coinBotId, reason: 'price' },
        options: { jobId: reconcileJobId(coinBotId) },
      })),
    );
  });
};
