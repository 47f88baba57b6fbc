import type { Deal, listCoinTrades } from '@gridbot/contracts';
import type { Fill, Lot as LotRow, Order, Prisma } from '@gridbot/db';
import { takeProfitOrderKey, takeProfitPrice, usdtFigure } from '@gridbot/domain';
import { fromMicro } from '@gridbot/ledger';
import Decimal from 'decimal.js';
import { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { dec } from '../grid/coin-bot-state';
import { keysetPage, pagePosition, ZCursorInstant } from '../paging/keyset-cursor';
import { pctOf, pctText } from './figures';
import { loadOrdersOnBook } from './orders-on-book';
import { lastPrices } from './venue-market-data';
import { coinMarket } from './venue-precision';

export type CoinTrades = z.input<(typeof listCoinTrades)['response']>;

export type ListCoinTradesInput = {
  userId: number;
  coinBotId: number;
  status: 'open' | 'closed' | 'all';
  page: number;
  limit: number;
  /** The previous page's nextCursor (docs/decisions.md#lists-paged-by-cursor-issue-22). */
  cursor?: string | undefined;
};

/** A lot's place in the list: its closing time (null while open) and its seq. */
const ZDealKey = z.tuple([ZCursorInstant.nullable(), z.number().int()]);

/**
 * The lots after a cursor in the list's order, closed_at DESC NULLS FIRST, seq DESC: the open ones
 * after it (lower seq), then every closed one; or, after a closed lot, the ones that closed
 * earlier, or at the same instant with a lower seq.
 */
const lotsAfter = ([closedAt, seq]: z.output<typeof ZDealKey>): Prisma.LotWhereInput =>
  closedAt === null
    ? { OR: [{ closedAt: null, seq: { lt: seq } }, { closedAt: { not: null } }] }
    : // closed_at <= the cursor's bounds the index scan; the OR settles the lots of that very instant.
      { closedAt: { not: null, lte: closedAt }, OR: [{ closedAt: { lt: closedAt } }, { seq: { lt: seq } }] };

type OrderWithFills = Order & { fills: Fill[] };
const ZERO = new Decimal(0);

/** The fills of one lot's buy (or sell) orders as one fill: average price, summed quantity and fee. */
const fillOf = (orders: OrderWithFills[]): Deal['buy'] | null => {
  const fills = orders.flatMap((o) => o.fills);
  const last = orders.at(-1);
  if (!last || fills.length === 0) return null;
  const qty = fills.reduce((s, f) => s.plus(dec(f.qty)), ZERO);
  const quote = fills.reduce((s, f) => s.plus(dec(f.quoteQty)), ZERO);
  const fee = fills.reduce((s, f) => s.plus(dec(f.feeQuote)), ZERO);
  const at = fills.reduce((latest, f) => (f.at > latest ? f.at : latest), fills[0]!.at);
  return {
    side: last.side === 'sell' ? 'sell' : 'buy',
    kind: last.role as Deal['buy']['kind'],
    orderId: last.exchangeOrderId ?? '',
    clientOrderId: last.clientOrderId,
    price: quote.div(qty).toFixed(),
    quantity: qty.toFixed(),
    quoteAmount: usdtFigure(quote),
    fee: usdtFigure(fee),
    at: at.toISOString(),
  };
};

/**
 * Deals of one of the user's coin bots (docs/pnl.md#a-lot): open lots first, newest (lowest price)
 * first, then closed lots newest first, `limit` a page, after a cursor (or by the spec's page). Each with its buy and sell fills; open lots
 * with their take profit (the resting sell, else the planned one) and PnL at the last price.
 */
export const listPortfolioCoinTrades = async (
  ctx: ServiceContext,
  input: ListCoinTradesInput,
): Promise<CoinTrades> => {
  const bot = await ctx.prisma.coinBot.findFirst({
    where: { id: input.coinBotId, userId: input.userId },
    include: { exchangeAccount: { select: { exchange: true, mode: true } } },
  });
  if (!bot) throw new AppError('COIN_NOT_FOUND');
  const where = {
    coinBotId: bot.id,
    ...(input.status === 'open'
      ? { closedAt: null }
      : input.status === 'closed'
        ? { closedAt: { not: null } }
        : {}),
  };
  const position = pagePosition(input, ZDealKey);
  const [total, read] = await Promise.all([
    ctx.prisma.lot.count({ where }),
    ctx.prisma.lot.findMany({
      where: position.after === null ? where : { AND: [where, lotsAfter(position.after)] },
      orderBy: [{ closedAt: { sort: 'desc', nulls: 'first' } }, { seq: 'desc' }],
      skip: position.offset,
      take: input.limit + 1,
    }),
  ]);
  const { rows: lots, nextCursor } = keysetPage(read, input.limit, (lot) => [
    lot.closedAt?.toISOString() ?? null,
    lot.seq,
  ]);
  const seqs = lots.map((l) => l.seq);
  const venue = `${bot.exchangeAccount.exchange}:${bot.exchangeAccount.mode}`;
  const anyOpen = lots.some((l) => l.closedAt === null);
  const openSeqs = lots.filter((l) => l.closedAt === null).map((l) => l.seq);
  const [orders, prices, market, onBook] = await Promise.all([
    ctx.prisma.order.findMany({
      where: { coinBotId: bot.id, lotSeq: { in: seqs }, status: { in: ['filled', 'canceled', 'open'] } },
      include: { fills: { orderBy: { id: 'asc' } } },
      orderBy: { id: 'asc' },
    }),
    anyOpen ? lastPrices(ctx, new Map([[venue, [bot.symbol]]])) : Promise.resolve(null),
    anyOpen ? coinMarket(ctx, venue, bot.symbol) : Promise.resolve(null),
    // Where the open lots' take profits stand (docs/grid.md#on-the-exchange); dry: no buy asked for.
    loadOrdersOnBook(ctx, [
      {
        coinBotId: bot.id,
        flags: { running: bot.running, dry: true },
        lotSeqs: openSeqs,
        nextSeq: bot.nextSeq,
        maxTrades: bot.maxTrades,
        lastError: bot.lastError,
      },
    ]),
  ]);
  const takeProfitsOnBook = onBook.get(bot.id)?.orders;
  const ticker = prices?.get(venue)?.get(bot.symbol);
  const lastPrice = ticker?.last.gt(0) ? ticker.last : null;
  const settings = {
    orderSize: dec(bot.orderSize),
    stepPct: dec(bot.stepPct),
    stepIncreasePct: dec(bot.stepIncreasePct),
    maxTrades: bot.maxTrades,
  };
  // A take profit not resting yet, as the engine will send it: on the tick (docs/grid.md#take-profit).
  const plannedTakeProfit = (buyPrice: Decimal) => {
    const planned = takeProfitPrice(buyPrice, settings);
    return market ? market.rounding.price(planned) : planned;
  };

  const deal = (lot: LotRow): Deal => {
    const mine = orders.filter((o) => o.lotSeq === lot.seq);
    const buys = mine.filter((o) => o.side === 'buy' && o.fills.length > 0);
    const sells = mine.filter((o) => o.side === 'sell' && o.fills.length > 0);
    const cost = dec(lot.cost);
    const open = lot.closedAt === null;
    const resting = mine.find((o) => o.side === 'sell' && o.status === 'open' && o.price);
    const pnl = open
      ? lastPrice
        ? dec(lot.qty).times(lastPrice).minus(cost)
        : ZERO
      : dec(lot.pnl ?? lot.realizedPnl);
    return {
      lotId: String(lot.id),
      lotNumber: lot.seq,
      status: open ? 'open' : 'closed',
      quantity: dec(lot.qty).toFixed(),
      cost: usdtFigure(cost),
      buy: fillOf(buys) ?? {
        side: 'buy',
        kind: lot.seq === 1 ? 'entry' : 'averaging',
        orderId: '',
        clientOrderId: '',
        price: dec(lot.buyPrice).toFixed(),
        quantity: dec(lot.qty).toFixed(),
        quoteAmount: usdtFigure(cost),
        fee: '0',
        at: lot.openedAt.toISOString(),
      },
      sell: open ? null : fillOf(sells),
      takeProfitPrice: open
        ? (resting?.price ? dec(resting.price) : plannedTakeProfit(dec(lot.buyPrice))).toFixed()
        : null,
      takeProfitOnBook: open ? (takeProfitsOnBook?.get(takeProfitOrderKey(lot.seq)) ?? null) : null,
      pnl: usdtFigure(pnl),
      pnlPct: pctText(pctOf(pnl, cost)),
      // Charged when the lot closed (docs/fees.md#trading-fee); '0' for a closed lot without profit.
      tradeFee: open ? null : fromMicro(lot.tradeFee ?? 0n),
    };
  };
  return {
    data: lots.map(deal),
    page: input.page,
    limit: input.limit,
    total,
    hasMore: nextCursor !== null,
    nextCursor,
  };
};
