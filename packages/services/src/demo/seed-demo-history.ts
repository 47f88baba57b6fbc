import type { CoinBot, Prisma } from '@gridbot/db';
import { type Lot, type ReplayFill, replayGrid } from '@gridbot/domain';
import type { ExchangeTrade } from '@gridbot/exchange';
import Decimal from 'decimal.js';
import type { ServiceContext } from '../context/service-context';
import { dec } from '../grid/coin-bot-state';
import { lotOfBuy, saleOfLot } from '../grid/lot-booking';
import { fillRows, tradeTotals } from '../grid/record-order-outcome';
import { chargeTradeFee } from '../grid/trade-fee';
import { type Market, orderRow, seriesOf, tradeOf } from './history-rows';

/** How many days of trading the demo shows on its first start. */
export const DEMO_HISTORY_DAYS = 21;

/** A past candle as the sandbox gives it (decimal strings on the market's tick grid). */
export type DemoPastCandle = { time: number; open: string; high: string; low: string; close: string };

/** What the history needs of the sandbox exchange (services never import apps). */
export type DemoPast = {
  /** A market's past candles from `since` to where its live prices begin, oldest first. */
  pastCandles(symbol: string, since: number): DemoPastCandle[];
  /** The market's filters. */
  market(symbol: string): { tickSize: string; stepSize: string };
  /** The exchange's fee in % of the asset received (Binance: 0.1). */
  feePct: string;
};

export type DemoHistoryInput = {
  /** Coin bots created stopped, never started: they start once their history is written. */
  bots: CoinBot[];
  past: DemoPast;
  /** The account's USDT before the history. */
  startingUsdt: string;
  /** Gives the exchange account the balances the history's trades leave (before anything is written). */
  setBalances(balances: Record<string, string>): void;
  days?: number;
};

export type DemoHistory = {
  /** The account's free balances once the history's trades are done: USDT and each coin held. */
  balances: Record<string, string>;
  /** Filled orders booked, per coin. */
  fills: Record<string, number>;
};

const ZERO = new Decimal(0);
const DAY = 86_400_000;

const floorTo = (value: Decimal, step: Decimal) => value.div(step).floor().mul(step);
const ceilTo = (value: Decimal, step: Decimal) => value.div(step).ceil().mul(step);

/**
 * The demo's first weeks (docs/decisions.md, demo history): the past of each coin's market (the
 * sandbox's candles before its live prices begin) replayed through the grid engine's replay
 * (docs/replay.md) with the coin bot's settings, and every fill booked as the live engine books
 * it: an order row, its fill, and the lots and PnL of the live engine's lot model (lot-booking.ts),
 * all at their historical times. Prices and quantities are put on the market's grid (buys a tick
 * down, take profits a tick up, quantities a step down) and fees follow Binance (a buy's fee in the
 * coin, a sell's in USDT), so the lots hold what the exchange account holds, and the account is
 * given those balances. All rows are written in bulk inserts in one transaction that also starts
 * the coin bots (seconds for thousands of fills): the history is there entirely or not at all.
 */
export const seedDemoHistory = async (ctx: ServiceContext, input: DemoHistoryInput): Promise<DemoHistory> => {
  const now = ctx.clock.now();
  const since = now.getTime() - (input.days ?? DEMO_HISTORY_DAYS) * DAY;
  let usdt = new Decimal(input.startingUsdt);
  const balances: Record<string, string> = {};
  const fills: Record<string, number> = {};
  const plans: Array<{ bot: CoinBot; plan?: BotHistory }> = [];
  for (const bot of input.bots) {
    const candles = input.past.pastCandles(bot.symbol, since);
    if (candles.length === 0) {
      plans.push({ bot });
      continue;
    }
    const [base, quote] = bot.symbol.split('/') as [string, string];
    const filters = input.past.market(bot.symbol);
    const market: Market = {
      base,
      quote,
      tick: new Decimal(filters.tickSize),
      step: new Decimal(filters.stepSize),
      fee: new Decimal(input.past.feePct).div(100),
    };
    const report = replayGrid({
      candles: seriesOf(candles),
      settings: {
        orderSize: dec(bot.orderSize),
        stepPct: dec(bot.stepPct),
        stepIncreasePct: dec(bot.stepIncreasePct),
        maxTrades: bot.maxTrades,
      },
      feePct: new Decimal(input.past.feePct),
    });
    const plan = planBotHistory(bot, market, report.fills, new Date(candles[0]!.time));
    plans.push({ bot, plan });
    usdt = usdt.plus(plan.usdt);
    balances[base] = plan.coin.toFixed();
    fills[base] = plan.orders.length;
  }
  balances.USDT = usdt.toDecimalPlaces(8, Decimal.ROUND_DOWN).toFixed();
  // The account first: if the write below never happens, the bots stay unstarted and the next
  // start books their history again and sets the balances again.
  input.setBalances(balances);
  await ctx.prisma.$transaction(
    async (tx) => {
      for (const { bot, plan } of plans) {
        if (plan) await writeBotHistory(tx, bot, plan);
        await tx.coinBot.update({
          where: { id: bot.id },
          data: {
            running: true,
            startedAt: plan?.startedAt ?? now,
            ...(plan ? { createdAt: plan.startedAt } : {}),
          },
        });
      }
    },
    { timeout: 120_000, maxWait: 120_000 },
  );
  return { balances, fills };
};

/** A lot while the history is booked: the lot model's view, its row's id-less columns. */
type BookedLot = { lot: Lot; received: Decimal | null; columns: Record<string, unknown> };

type BotHistory = ReturnType<typeof planBotHistory>;

/**
 * One coin bot's replayed fills, booked in memory: each becomes the exchange trade it would have
 * been and goes through the live engine's lot model (lot-booking.ts). Also what they did to the
 * account (`usdt`, `coin`).
 */
const planBotHistory = (bot: CoinBot, market: Market, fills: ReplayFill[], startedAt: Date) => {
  let usdt = ZERO;
  let coin = ZERO;
  let carry = { qty: ZERO, cost: ZERO };
  let nextSeq = 1;
  const seqOf = new Map<number, number>();
  const lots = new Map<number, BookedLot>();
  const daily = new Map<number, { realizedPnl: Decimal; closedTrades: number; profitableTrades: number }>();
  const stats = { realizedPnl: ZERO, closedTrades: 0, profitableTrades: 0 };
  const orders: Prisma.OrderCreateManyInput[] = [];
  const trades: ExchangeTrade[] = [];
  for (const [n, fill] of fills.entries()) {
    const buy = fill.side === 'buy';
    // The replay numbers lots from 1 as the coin bot does; mapped in case a rounded-away sale parts them.
    const seq = buy ? nextSeq : (seqOf.get(fill.lotSeq) ?? -1);
    const open = lots.get(seq);
    if (!buy && (!open || open.columns.closedAt)) continue;
    const price = buy
      ? floorTo(new Decimal(fill.price), market.tick)
      : ceilTo(new Decimal(fill.price), market.tick);
    const amount = floorTo(buy ? dec(bot.orderSize).div(price) : open!.lot.qty, market.step);
    if (amount.isZero()) continue;
    const trade = tradeOf(bot, market, fill, `history-${bot.id}-${n + 1}`, price, amount);
    const totals = tradeTotals(bot.symbol, [trade]);
    if (buy) {
      seqOf.set(fill.lotSeq, seq);
      nextSeq += 1;
      const lot = lotOfBuy(seq, carry, totals);
      carry = { qty: ZERO, cost: ZERO };
      lots.set(seq, { lot, received: null, columns: {} });
    } else {
      const sale = saleOfLot(open!.lot, open!.received, totals, true);
      lots.set(seq, { lot: sale.rest ?? open!.lot, received: sale.received, columns: sale.columns });
      carry = { qty: carry.qty.plus(sale.left.qty), cost: carry.cost.plus(sale.left.cost) };
      const day = daily.get(sale.day.getTime()) ?? {
        realizedPnl: ZERO,
        closedTrades: 0,
        profitableTrades: 0,
      };
      daily.set(sale.day.getTime(), {
        realizedPnl: day.realizedPnl.plus(sale.pnl),
        closedTrades: day.closedTrades + sale.closedTrades,
        profitableTrades: day.profitableTrades + sale.profitableTrades,
      });
      stats.realizedPnl = stats.realizedPnl.plus(sale.pnl);
      stats.closedTrades += sale.closedTrades;
      stats.profitableTrades += sale.profitableTrades;
    }
    orders.push(orderRow(bot, fill, seq, trade));
    trades.push(trade);
    const fee = trade.fee!.cost;
    usdt = buy ? usdt.minus(trade.cost) : usdt.plus(trade.cost.minus(fee));
    coin = buy ? coin.plus(amount.minus(fee)) : coin.minus(amount);
  }
  return { usdt, coin, orders, trades, lots, daily, stats, carry, nextSeq, startedAt };
};

/** Writes a coin bot's planned history in bulk inserts, inside the caller's transaction. */
const writeBotHistory = async (tx: Prisma.TransactionClient, bot: CoinBot, plan: BotHistory) => {
  const { orders, trades, lots, daily, stats, carry, nextSeq } = plan;
  await tx.order.createMany({ data: orders });
  const ids = await tx.order.findMany({
    where: { coinBotId: bot.id },
    select: { id: true, exchangeOrderId: true },
  });
  const idOf = new Map(ids.map((o) => [o.exchangeOrderId, o.id]));
  await tx.fill.createMany({
    data: trades.flatMap((t) =>
      fillRows(bot, idOf.get(t.orderId)!, [t], new Date(t.timestamp)).map((row) => ({
        ...row,
        convergedAt: row.at,
      })),
    ),
  });
  await tx.lot.createMany({
    data: [...lots.values()].map(({ lot, columns }) => ({
      coinBotId: bot.id,
      seq: lot.seq,
      buyPrice: lot.price.toString(),
      qty: lot.qty.toString(),
      cost: lot.cost.toString(),
      openedAt: lot.openedAt,
      ...columns,
    })),
  });
  // The platform's trading fee on every profitable closed lot, as the live engine charges it.
  const closed = await tx.lot.findMany({
    where: { coinBotId: bot.id, closedAt: { not: null }, pnl: { gt: 0 } },
    select: { id: true, seq: true, pnl: true, closedAt: true },
    orderBy: { seq: 'asc' },
  });
  for (const lot of closed) {
    await chargeTradeFee(tx, {
      coinBotId: bot.id,
      userId: bot.userId,
      symbol: bot.symbol,
      lotId: lot.id,
      seq: lot.seq,
      pnl: dec(lot.pnl ?? 0),
      at: lot.closedAt ?? new Date(),
    });
  }
  await tx.dailyPnl.createMany({
    data: [...daily].map(([date, day]) => ({
      coinBotId: bot.id,
      userId: bot.userId,
      date: new Date(date),
      realizedPnl: day.realizedPnl.toString(),
      closedTrades: day.closedTrades,
      profitableTrades: day.profitableTrades,
    })),
  });
  await tx.coinBot.update({
    where: { id: bot.id },
    data: {
      nextSeq,
      carryQty: carry.qty.toString(),
      carryCost: carry.cost.toString(),
      realizedPnl: stats.realizedPnl.toString(),
      closedTrades: stats.closedTrades,
      profitableTrades: stats.profitableTrades,
    },
  });
};
