import { createDb } from '@gridbot/db';
import { checkInvariants } from '@gridbot/ledger';
import type { Fleet } from './start-fleet';

/**
 * What every fault scenario ends with (docs/fleet.md#fault-tests): the ledger balances
 * (accounts sum to zero, each balance equals its entries) and, for every exchange account, the
 * exchange and the database agree — the same resting orders, no client order id sent twice, one
 * fill recorded per exchange trade, one lot per buy that filled.
 */
export type BooksReport = {
  problems: string[];
  accounts: number;
  exchangeOrders: number;
  exchangeTrades: number;
  dbFills: number;
};

type SandboxOrder = {
  orderId: number;
  clientOrderId: string;
  status: string;
  side: string;
  executedQty: string;
  symbol: string;
};
type SandboxTrade = { id: number; orderId: number; symbol: string; isBuyer: boolean };

const sandboxGet = async <T>(fleet: Fleet, path: string): Promise<T> => {
  const response = await fetch(`${fleet.sandbox.exchangeUrl}${path}`);
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
};

export const checkBooks = async (fleet: Fleet): Promise<BooksReport> => {
  const db = await createDb({ databaseUrl: fleet.databaseUrl, poolMax: 2 });
  const problems: string[] = [];
  const report: BooksReport = { problems, accounts: 0, exchangeOrders: 0, exchangeTrades: 0, dbFills: 0 };
  try {
    const invariants = await checkInvariants(db.prisma);
    if (!invariants.ok)
      problems.push(
        `ledger: ${JSON.stringify(invariants, (_key, value) => (typeof value === 'bigint' ? value.toString() : value))}`,
      );
    const accounts = await db.prisma.exchangeAccount.findMany({ where: { mode: 'sandbox' } });
    report.accounts = accounts.length;
    for (const account of accounts) {
      const key = encodeURIComponent(account.apiKey);
      const orders = await sandboxGet<SandboxOrder[]>(fleet, `/_sandbox/accounts/${key}/orders`);
      const trades = await sandboxGet<SandboxTrade[]>(fleet, `/_sandbox/accounts/${key}/trades`);
      report.exchangeOrders += orders.length;
      // The engine books an order's trades when the order has finished (docs/grid.md#live-execution):
      // a resting order filled in part (PARTIALLY_FILLED, ordinary on Binance) has trades the
      // database records only once it fills, is cancelled or expires.
      const finished = new Set(
        orders.filter((o) => o.status !== 'NEW' && o.status !== 'PARTIALLY_FILLED').map((o) => o.orderId),
      );
      const booked = trades.filter((t) => finished.has(t.orderId));
      report.exchangeTrades += booked.length;
      const ids = orders.map((o) => o.clientOrderId);
      if (new Set(ids).size !== ids.length)
        problems.push(`account ${account.id}: a client order id sent twice`);
      const bots = await db.prisma.coinBot.findMany({
        where: { exchangeAccountId: account.id },
        select: { id: true },
      });
      const botIds = bots.map((b) => b.id);
      const dbOpen = await db.prisma.order.findMany({
        where: { coinBotId: { in: botIds }, status: { in: ['open', 'pending'] } },
        select: { clientOrderId: true },
      });
      const exchangeOpen = orders.filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED');
      const a = exchangeOpen.map((o) => o.clientOrderId).sort();
      const b = dbOpen.map((o) => o.clientOrderId).sort();
      if (JSON.stringify(a) !== JSON.stringify(b))
        problems.push(
          `account ${account.id}: resting orders differ (exchange ${a.join(',')} / database ${b.join(',')})`,
        );
      const fills = await db.prisma.fill.count({ where: { coinBotId: { in: botIds } } });
      report.dbFills += fills;
      if (fills !== booked.length)
        problems.push(
          `account ${account.id}: ${booked.length} trades of finished orders, ${fills} fills recorded`,
        );
      // One lot per filled buy; a buy cancelled part-filled opens one too, unless what it bought is
      // too small to be sold on its own and is carried into the next lot (docs/grid.md#remainders).
      const finishedBuys = orders.filter(
        (o) => o.side === 'BUY' && finished.has(o.orderId) && !/^0(\.0*)?$/.test(o.executedQty),
      );
      const filledBuys = finishedBuys.filter((o) => o.status === 'FILLED').length;
      const lots = await db.prisma.lot.count({ where: { coinBotId: { in: botIds } } });
      if (lots < filledBuys || lots > finishedBuys.length)
        problems.push(
          `account ${account.id}: ${filledBuys} filled buys and ${finishedBuys.length - filledBuys} part-filled, ${lots} lots`,
        );
    }
    return report;
  } finally {
    await db.close();
  }
};
