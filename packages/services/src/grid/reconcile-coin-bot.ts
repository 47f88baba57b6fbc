import type { Order, PrismaClient } from '@gridbot/db';
import { type DesiredOrder, plan } from '@gridbot/domain';
import { clientOrderIdFor, type ExchangeClient, isExchangeError } from '@gridbot/exchange';
import { dec, loadCoinBot } from './coin-bot-state';
import { acquireLease, releaseLease } from './lease';
import { recordOrderOutcome } from './record-order-outcome';

export type ReconcileDeps = {
  prisma: PrismaClient;
  /** The exchange client of a coin bot's exchange account (one per API key: it holds the rate limiter). */
  clientFor: (exchangeAccountId: number) => Promise<ExchangeClient>;
  /** Who holds the lease (worker id). */
  owner: string;
  leaseMs?: number;
};

export type ReconcileResult = {
  status: 'busy' | 'missing' | 'done' | 'error';
  placed: number;
  canceled: number;
  filled: number;
  error?: string;
};

/** Enough passes for fill → re-plan → place chains of one trigger; the next trigger continues. */
const MAX_PASSES = 8;

/** A desired order as it will be sent: price and quantity on the exchange's grid. */
type Intent = DesiredOrder & { sendPrice: string | null; sendQty: string | null; sendQuote: string | null };

const toIntent = (client: ExchangeClient, symbol: string, d: DesiredOrder): Intent => {
  const sendPrice = d.price ? client.priceToPrecision(symbol, d.price) : null;
  const sendQty =
    d.side === 'sell' && d.qty
      ? client.amountToPrecision(symbol, d.qty)
      : d.type === 'limit' && d.quoteAmount && sendPrice
        ? client.amountForQuote(symbol, d.quoteAmount, sendPrice)
        : null;
  return {
    ...d,
    sendPrice,
    sendQty,
    sendQuote: d.type === 'market' && d.quoteAmount ? d.quoteAmount.toString() : null,
  };
};

const sameOrder = (row: Order, intent: Intent) =>
  row.key === intent.key &&
  row.side === intent.side &&
  row.type === intent.type &&
  (intent.sendPrice === null
    ? row.price === null
    : row.price !== null && dec(row.price).eq(intent.sendPrice)) &&
  (intent.sendQty === null || (row.qty !== null && dec(row.qty).eq(intent.sendQty)));

/**
 * Makes the exchange hold exactly the orders the planner wants for one coin bot (DESIGN §3):
 * first every known order is looked up and finished fills are applied, then the difference between
 * desired and resting orders is cancelled / placed. Idempotent: an intent is written (`pending`)
 * before the exchange call and carries a deterministic clientOrderId, so a crash anywhere leads
 * the next run to adopt the order instead of duplicating it. Single-flight through a lease.
 */
export const reconcileCoinBot = async (deps: ReconcileDeps, coinBotId: number): Promise<ReconcileResult> => {
  const { prisma, owner } = deps;
  const result: ReconcileResult = { status: 'done', placed: 0, canceled: 0, filled: 0 };
  if (!(await acquireLease(prisma, coinBotId, owner, deps.leaseMs ?? 60_000)))
    return { ...result, status: 'busy' };
  let finished = false;
  try {
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      const snapshot = await loadCoinBot(prisma, coinBotId);
      if (!snapshot) return { ...result, status: 'missing' };
      const { bot } = snapshot;
      const client = await deps.clientFor(bot.exchangeAccountId);
      await client.loadMarkets();
      const tradesOf = (row: Order) => () =>
        client.fetchMyTrades(bot.symbol, row.createdAt.getTime() - 60_000);

      // 1. What happened to our orders since last time.
      let changed = false;
      const live: Order[] = [];
      // One call for everything still resting; only orders that left the book are looked up one by one.
      const resting = snapshot.active.length > 0 ? await client.fetchOpenOrders(bot.symbol) : [];
      const restingById = new Map(resting.map((o) => [o.clientOrderId, o]));
      for (const row of snapshot.active) {
        const order =
          restingById.get(row.clientOrderId) ??
          (await client.fetchOrderByClientId(bot.symbol, row.clientOrderId));
        if (!order) {
          if (row.status === 'pending') live.push(row);
          else
            await prisma.order.updateMany({
              where: { id: row.id, status: 'open' },
              data: { status: 'canceled' },
            });
          continue;
        }
        const outcome = await recordOrderOutcome(prisma, bot, row, order, tradesOf(row));
        if (outcome === 'filled') {
          result.filled += 1;
          changed = true;
        } else if (order.status === 'open') live.push({ ...row, status: 'open', exchangeOrderId: order.id });
      }
      if (changed) continue;

      // 2. Cancel what the plan no longer wants (a settings edit, pause, a replaced price).
      const intents = plan(snapshot.state, snapshot.settings, snapshot.flags).map((d) =>
        toIntent(client, bot.symbol, d),
      );
      const kept = new Map<string, Order>();
      for (const row of live) {
        const intent = intents.find((i) => i.key === row.key);
        if (intent && !kept.has(row.key) && sameOrder(row, intent)) {
          kept.set(row.key, row);
          continue;
        }
        if (row.status === 'pending') {
          await prisma.order.updateMany({
            where: { id: row.id, status: 'pending' },
            data: { status: 'canceled' },
          });
          continue;
        }
        const order = await client.cancelOrder(bot.symbol, { clientOrderId: row.clientOrderId });
        result.canceled += 1;
        const after = order ?? (await client.fetchOrderByClientId(bot.symbol, row.clientOrderId));
        if (after && (await recordOrderOutcome(prisma, bot, row, after, tradesOf(row))) === 'filled') {
          result.filled += 1;
          changed = true;
        }
      }
      if (changed) continue;

      // 3. Place what is missing (or re-send an intent a crash left pending).
      for (const intent of intents) {
        const existing = kept.get(intent.key);
        if (existing?.status === 'open') continue;
        const row = existing ?? (await writeIntent(prisma, bot, intent));
        try {
          const placed = await client.placeOrder({
            symbol: bot.symbol,
            side: intent.side,
            type: intent.type,
            clientOrderId: row.clientOrderId,
            ...(intent.sendPrice ? { price: intent.sendPrice } : {}),
            ...(intent.sendQty ? { amount: intent.sendQty } : {}),
            ...(intent.sendQuote ? { quoteAmount: intent.sendQuote } : {}),
          });
          result.placed += placed.existing ? 0 : 1;
          if ((await recordOrderOutcome(prisma, bot, row, placed.order, tradesOf(row))) === 'filled') {
            result.filled += 1;
            changed = true;
          }
        } catch (error) {
          if (!isExchangeError(error) || error.retryable) throw error;
          await prisma.order.updateMany({
            where: { id: row.id, status: 'pending' },
            data: { status: 'rejected' },
          });
          await prisma.coinBot.update({ where: { id: bot.id }, data: { lastError: error.code } });
          return { ...result, status: 'error', error: error.code };
        }
      }
      if (!changed) {
        if (bot.lastError) await prisma.coinBot.update({ where: { id: bot.id }, data: { lastError: null } });
        finished = true;
        return result;
      }
    }
    finished = true;
    return result;
  } finally {
    await releaseLease(prisma, coinBotId, owner, finished);
  }
};

/** Records the order before it is sent; attempt = earlier orders for the same lot and side + 1. */
const writeIntent = async (prisma: PrismaClient, bot: { id: number; symbol: string }, intent: Intent) => {
  const earlier = await prisma.order.count({
    where: { coinBotId: bot.id, lotSeq: intent.lotSeq, side: intent.side },
  });
  const attempt = earlier + 1;
  return prisma.order.create({
    data: {
      coinBotId: bot.id,
      clientOrderId: clientOrderIdFor({
        coinBotId: bot.id,
        lotSeq: intent.lotSeq,
        side: intent.side,
        attempt,
      }),
      key: intent.key,
      role: intent.role,
      side: intent.side,
      type: intent.type,
      symbol: bot.symbol,
      price: intent.sendPrice,
      qty: intent.sendQty,
      quoteAmount: intent.quoteAmount?.toString() ?? null,
      lotSeq: intent.lotSeq,
      attempt,
      status: 'pending',
    },
  });
};
