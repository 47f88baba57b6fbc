import type { Order, PrismaClient } from '@gridbot/db';
import { applySellFill } from '@gridbot/domain';
import type { ExchangeOrder, ExchangeTrade } from '@gridbot/exchange';
import Decimal from 'decimal.js';
import { dec, lotFromRow } from './coin-bot-state';

export type OutcomeBot = { id: number; userId: number; symbol: string };
export type OutcomeResult = 'unchanged' | 'updated' | 'filled';

const ZERO = new Decimal(0);

/** What the trades of one order add up to, with the fee split by the currency it was charged in. */
const aggregate = (symbol: string, trades: ExchangeTrade[]) => {
  const [base, quote] = symbol.split('/');
  let amount = ZERO;
  let quoteQty = ZERO;
  let feeInBase = ZERO;
  let feeInQuote = ZERO;
  let lastAt = 0;
  for (const trade of trades) {
    amount = amount.plus(trade.amount);
    quoteQty = quoteQty.plus(trade.cost);
    lastAt = Math.max(lastAt, trade.timestamp);
    if (!trade.fee) continue;
    if (trade.fee.currency === base) feeInBase = feeInBase.plus(trade.fee.cost);
    else if (trade.fee.currency === quote) feeInQuote = feeInQuote.plus(trade.fee.cost);
    else feeInQuote = feeInQuote.plus(trade.feeQuote ?? ZERO);
  }
  return { amount, quoteQty, feeInBase, feeInQuote, at: new Date(lastAt || Date.now()) };
};

const utcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

const terminalStatus = (order: ExchangeOrder) =>
  order.status === 'closed' ? 'filled' : order.status === 'rejected' ? 'rejected' : 'canceled';

/**
 * Brings one of our order rows in line with the exchange, and applies a finished order's fills
 * exactly once: the status flip from pending/open is conditional inside the transaction, fills are
 * unique per exchange trade id, and the lot's seq must be the coin bot's next seq. A crash before
 * commit leaves everything as it was; the next reconcile applies it again from the exchange.
 */
export const recordOrderOutcome = async (
  prisma: PrismaClient,
  bot: OutcomeBot,
  row: Order,
  order: ExchangeOrder,
  tradesOf: () => Promise<ExchangeTrade[]>,
): Promise<OutcomeResult> => {
  if (order.status === 'open') {
    if (row.status === 'open' && row.exchangeOrderId === order.id && dec(row.filledQty).eq(order.filled))
      return 'unchanged';
    await prisma.order.updateMany({
      where: { id: row.id, status: { in: ['pending', 'open'] } },
      data: { status: 'open', exchangeOrderId: order.id, filledQty: order.filled.toString() },
    });
    return 'updated';
  }
  if (order.filled.isZero()) {
    await prisma.order.updateMany({
      where: { id: row.id, status: { in: ['pending', 'open'] } },
      data: { status: terminalStatus(order), exchangeOrderId: order.id },
    });
    return 'updated';
  }
  const trades = (await tradesOf()).filter((t) => t.orderId === order.id);
  const totals = aggregate(bot.symbol, trades);
  // The exchange may list the trades a moment after the order: apply only a complete set.
  if (!totals.amount.eq(order.filled)) return 'unchanged';

  await prisma.$transaction(async (tx) => {
    const flipped = await tx.order.updateMany({
      where: { id: row.id, status: { in: ['pending', 'open'] } },
      data: { status: terminalStatus(order), exchangeOrderId: order.id, filledQty: order.filled.toString() },
    });
    if (flipped.count === 0) return;
    await tx.fill.createMany({
      data: trades.map((t) => ({
        orderId: row.id,
        coinBotId: bot.id,
        exchangeTradeId: t.id,
        price: t.price.toString(),
        qty: t.amount.toString(),
        quoteQty: t.cost.toString(),
        feeQuote: (t.feeQuote ?? ZERO).toString(),
        at: new Date(t.timestamp),
      })),
      skipDuplicates: true,
    });
    const price = totals.quoteQty.div(totals.amount);
    if (row.side === 'buy') {
      const advanced = await tx.coinBot.updateMany({
        where: { id: bot.id, nextSeq: row.lotSeq },
        data: { nextSeq: row.lotSeq + 1 },
      });
      if (advanced.count !== 1)
        throw new Error(`coin bot ${bot.id}: buy for lot ${row.lotSeq} out of sequence`);
      await tx.lot.create({
        data: {
          coinBotId: bot.id,
          seq: row.lotSeq,
          buyPrice: price.toString(),
          // Binance takes the buy fee from the coin received; any other fee currency adds to the cost.
          qty: totals.amount.minus(totals.feeInBase).toString(),
          cost: totals.quoteQty.plus(totals.feeInQuote).toString(),
          openedAt: totals.at,
        },
      });
      return;
    }
    const lotRow = await tx.lot.findUniqueOrThrow({
      where: { coinBotId_seq: { coinBotId: bot.id, seq: row.lotSeq } },
    });
    const lot = lotFromRow(lotRow);
    const proceeds = totals.quoteQty.minus(totals.feeInQuote).minus(totals.feeInBase.times(price));
    // A take-profit that filled completely closes the whole lot (any dust below the lot step goes with it).
    const soldQty = order.status === 'closed' ? lot.qty : Decimal.min(totals.amount, lot.qty);
    const { closed, state } = applySellFill(
      { lots: [lot], nextSeq: lot.seq + 1 },
      { lotSeq: lot.seq, price, qty: soldQty, proceeds, at: totals.at },
    );
    const remaining = state.lots[0];
    await tx.lot.update({
      where: { id: lotRow.id },
      data: remaining
        ? { qty: remaining.qty.toString(), cost: remaining.cost.toString() }
        : {
            sellPrice: price.toString(),
            proceeds: proceeds.toString(),
            pnl: closed.pnl.toString(),
            closedAt: totals.at,
          },
    });
    const whole = remaining === undefined;
    const profitable = whole && closed.pnl.gt(0) ? 1 : 0;
    await tx.coinBot.update({
      where: { id: bot.id },
      data: {
        realizedPnl: { increment: closed.pnl.toString() },
        closedTrades: { increment: whole ? 1 : 0 },
        profitableTrades: { increment: profitable },
      },
    });
    const day = utcDay(totals.at);
    await tx.dailyPnl.upsert({
      where: { coinBotId_date: { coinBotId: bot.id, date: day } },
      create: {
        coinBotId: bot.id,
        userId: bot.userId,
        date: day,
        realizedPnl: closed.pnl.toString(),
        closedTrades: whole ? 1 : 0,
        profitableTrades: profitable,
      },
      update: {
        realizedPnl: { increment: closed.pnl.toString() },
        closedTrades: { increment: whole ? 1 : 0 },
        profitableTrades: { increment: profitable },
      },
    });
  });
  return 'filled';
};
