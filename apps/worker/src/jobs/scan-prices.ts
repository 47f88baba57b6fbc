import type { PrismaClient } from '@gridbot/db';
import { type JobQueue, reconcileCoinBotJob, reconcileJobId, scanPricesJob } from '@gridbot/jobs';
import { advancePriceMarks, type ExchangeClients, findCrossedCoinBots } from '@gridbot/services';

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
 * moved through since the previous scan (marks kept in the database, so any replica can scan), one
 * crossing query over the resting-order index, one bulk enqueue.
 */
export const registerScanPrices = (queue: JobQueue, prisma: PrismaClient, clients: ExchangeClients) => {
  queue.process(scanPricesJob, async ({ venue, symbols }) => {
    if (symbols.length === 0) return;
    const tickers = await clients.forVenue(venue).fetchTickers(symbols);
    const ranges = await advancePriceMarks(
      prisma,
      venue,
      Object.values(tickers).map((t) => ({ symbol: t.symbol, price: t.last.toString() })),
    );
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
