import type { Order, Prisma } from '@gridbot/db';
import type { ExchangeOrder, ExchangeTrade } from '@gridbot/exchange';
import Decimal from 'decimal.js';
import type { ServiceContext } from '../context/service-context';
import { dec, lotFromRow } from './coin-bot-state';
import { bookingOfBuy, finishesLotOf, type LotOrderable, saleOfLot } from './lot-booking';
import { chargeTradeFee } from './trade-fee';

export type OutcomeBot = { id: number; userId: number; symbol: string };
/** `incomplete`: the order finished but the exchange does not list all its trades yet. */
export type OutcomeResult = 'unchanged' | 'updated' | 'filled' | 'incomplete';

type Tx = Prisma.TransactionClient;
const ZERO = new Decimal(0);

/**
 * What the trades of one order add up to, with the fee split by the currency it was charged in.
 * Shared with the demo's history (demo/seed-demo-history.ts), which books its fills the same way.
 */
export const tradeTotals = (symbol: string, trades: ExchangeTrade[]) => {
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
export type TradeTotals = ReturnType<typeof tradeTotals>;
type Totals = TradeTotals;

const terminalStatus = (order: ExchangeOrder) =>
  order.status === 'closed' ? 'filled' : order.status === 'rejected' ? 'rejected' : 'canceled';

/**
 * Brings one of our order rows in line with the exchange, and applies a finished order's fills
 * exactly once: the status flip from pending/open is conditional inside the transaction and
 * fills are unique per exchange trade id. A crash before commit leaves everything as it was; the
 * next reconcile applies it again from the exchange.
 */
export type OrderOutcomeInput = {
  bot: OutcomeBot;
  /** Our row of the order. */
  row: Order;
  /** The order as the exchange reports it now. */
  order: ExchangeOrder;
  /** Reads the exchange trades of a finished order. */
  tradesOf: (orderId: string) => Promise<ExchangeTrade[]>;
  /** Whether a part-filled order's remainder can be a lot with its own take profit (docs/grid.md#remainders). */
  orderableLot: LotOrderable;
};

export const recordOrderOutcome = async (
  ctx: ServiceContext,
  input: OrderOutcomeInput,
): Promise<OutcomeResult> => {
  const { prisma } = ctx;
  const { bot, row, order, tradesOf, orderableLot } = input;
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
      data: { status: terminalStatus(order), exchangeOrderId: order.id, liveKey: null },
    });
    return 'updated';
  }
  const trades = await tradesOf(order.id);
  const totals = tradeTotals(bot.symbol, trades);
  if (!totals.amount.eq(order.filled)) return 'incomplete';

  let applied = false;
  await prisma.$transaction(async (tx) => {
    const flipped = await tx.order.updateMany({
      where: { id: row.id, status: { in: ['pending', 'open'] } },
      data: {
        status: terminalStatus(order),
        exchangeOrderId: order.id,
        filledQty: order.filled.toString(),
        liveKey: null,
      },
    });
    if (flipped.count === 0) return;
    applied = true;
    await tx.fill.createMany({ data: fillRows(bot, row.id, trades, ctx.clock.now()), skipDuplicates: true });
    const finished = { complete: order.status === 'closed', orderable: orderableLot };
    if (row.side === 'buy') await openLot(tx, bot, row, totals, finished);
    else await closeLot(tx, bot, row, finished, totals);
  });
  return applied ? 'filled' : 'unchanged';
};

/** Our fill rows of an order's exchange trades, recorded at `recordedAt` (docs/grid.md#fill-latency). */
export const fillRows = (bot: OutcomeBot, orderId: number, trades: ExchangeTrade[], recordedAt: Date) =>
  trades.map((t) => ({
    orderId,
    coinBotId: bot.id,
    exchangeTradeId: t.id,
    price: t.price.toString(),
    qty: t.amount.toString(),
    quoteQty: t.cost.toString(),
    feeQuote: (t.feeQuote ?? ZERO).toString(),
    at: new Date(t.timestamp),
    recordedAt,
  }));

type Finished = { complete: boolean; orderable: LotOrderable };

/**
 * A finished buy becomes the next lot, together with any coin carried over from earlier sells; a
 * part-filled one too small for a take profit of its own joins the carry instead (lot-booking.ts).
 */
const openLot = async (
  tx: Tx,
  bot: OutcomeBot,
  row: Pick<Order, 'lotSeq'>,
  totals: Totals,
  finished: Finished,
) => {
  const current = await tx.coinBot.findUniqueOrThrow({ where: { id: bot.id } });
  // A buy we did not expect (it cannot be undone: the coin is bought) is tracked as the next lot
  // so that it gets a take profit, and flagged.
  const seq = current.nextSeq;
  const booking = bookingOfBuy(
    seq,
    { qty: dec(current.carryQty), cost: dec(current.carryCost) },
    totals,
    finished,
  );
  if (!booking.lot) {
    // The lot's sequence number stays free: the buy that replaces this order opens it.
    await tx.coinBot.update({
      where: { id: bot.id },
      data: {
        carryQty: booking.carry.qty.toString(),
        carryCost: booking.carry.cost.toString(),
        ...(row.lotSeq !== seq ? { lastError: 'UNEXPECTED_FILL' } : {}),
      },
    });
    return;
  }
  const { lot } = booking;
  await tx.coinBot.update({
    where: { id: bot.id },
    data: {
      nextSeq: seq + 1,
      carryQty: '0',
      carryCost: '0',
      ...(row.lotSeq !== seq ? { lastError: 'UNEXPECTED_FILL' } : {}),
    },
  });
  await tx.lot.create({
    data: {
      coinBotId: bot.id,
      seq,
      buyPrice: lot.price.toString(),
      qty: lot.qty.toString(),
      cost: lot.cost.toString(),
      openedAt: lot.openedAt,
    },
  });
};

/** A take profit's fills sold from its lot (lot-booking.ts saleOfLot), booked. */
const closeLot = async (
  tx: Tx,
  bot: OutcomeBot,
  row: Pick<Order, 'lotSeq'>,
  finished: Finished,
  totals: Totals,
) => {
  const lotRow = await tx.lot.findFirst({ where: { coinBotId: bot.id, seq: row.lotSeq, closedAt: null } });
  if (!lotRow) {
    // Sold coin of a lot that is already closed: recorded (fills above), never counted twice.
    await tx.coinBot.update({ where: { id: bot.id }, data: { lastError: 'UNEXPECTED_FILL' } });
    return;
  }
  const lot = lotFromRow(lotRow);
  const sale = saleOfLot(
    lot,
    lotRow.proceeds ? dec(lotRow.proceeds) : null,
    totals,
    finishesLotOf(lot, totals.amount, finished.complete, finished.orderable),
  );
  await tx.lot.update({ where: { id: lotRow.id }, data: sale.columns });
  if (!sale.rest) {
    await chargeTradeFee(tx, {
      coinBotId: bot.id,
      userId: bot.userId,
      symbol: bot.symbol,
      lotId: lotRow.id,
      seq: lotRow.seq,
      pnl: new Decimal(sale.columns.pnl ?? '0'),
      at: totals.at,
    });
  }
  if (!sale.left.qty.isZero() || !sale.left.cost.isZero()) {
    await tx.coinBot.update({
      where: { id: bot.id },
      data: {
        carryQty: { increment: sale.left.qty.toString() },
        carryCost: { increment: sale.left.cost.toString() },
      },
    });
  }
  const { closedTrades, profitableTrades, day } = sale;
  const pnl = sale.pnl.toString();
  await tx.coinBot.update({
    where: { id: bot.id },
    data: {
      realizedPnl: { increment: pnl },
      closedTrades: { increment: closedTrades },
      profitableTrades: { increment: profitableTrades },
    },
  });
  await tx.dailyPnl.upsert({
    where: { coinBotId_date: { coinBotId: bot.id, date: day } },
    create: {
      coinBotId: bot.id,
      userId: bot.userId,
      date: day,
      realizedPnl: pnl,
      closedTrades,
      profitableTrades,
    },
    update: {
      realizedPnl: { increment: pnl },
      closedTrades: { increment: closedTrades },
      profitableTrades: { increment: profitableTrades },
    },
  });
};
