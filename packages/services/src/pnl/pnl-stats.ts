import { Prisma } from '@gridbot/db';
import { usdtFigure } from '@gridbot/domain';
import { fromMicro } from '@gridbot/ledger';
import Decimal from 'decimal.js';
import { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { keysetPage, pagePosition, ZCursorDay, ZCursorMonth } from '../paging/keyset-cursor';

/**
 * The PnL statistics screens read `daily_pnl` (one row per coin bot and UTC day with sales,
 * written by the engine with every sell fill, docs/pnl.md#counting) and the trading fee each lot
 * was charged; every figure is a sum of those rows, so the screens agree with the deals. Days are
 * UTC days for every user (docs/pnl.md#days-and-times); the panel's today and total read the same
 * booked rows (docs/pnl.md#the-panel).
 */

const DAY_MS = 86_400_000;

/** `today` | `yesterday` | `YYYY-MM-DD` → the UTC day as `YYYY-MM-DD`. */
export const resolveDay = (ctx: ServiceContext, day: string): string => {
  const now = ctx.clock.now().getTime();
  if (day === 'today') return new Date(now).toISOString().slice(0, 10);
  if (day === 'yesterday') return new Date(now - DAY_MS).toISOString().slice(0, 10);
  return day;
};

const dateOnly = (value: Date | string) =>
  typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);

type Paging = {
  page: number;
  limit: number;
  /** The previous page's nextCursor (docs/decisions.md#lists-paged-by-cursor-issue-22). */
  cursor?: string | undefined;
};

type PnlPage<T> = {
  items: T[];
  page: number;
  limit: number;
  total: number;
  hasMore: boolean;
  nextCursor: string | null;
};

/** Where a page starts: after the cursor's day (or month), else the spec's page by offset. */
const positionOf = <K extends string>(input: Paging, key: z.ZodType<K>) => {
  const position = pagePosition(input, z.tuple([key]));
  return { offset: position.offset, after: position.after?.[0] ?? null };
};

export type DailyPnlRow = {
  date: string;
  realizedPnl: string;
  tradeFee: string;
  closedTrades: number;
  profitableTrades: number;
};

type DayRow = { date: Date; pnl: string; closed: number; profitable: number };

/**
 * Trading fees per UTC day (key `YYYY-MM-DD` or `YYYY-MM`) of the day each lot closed, the day its
 * PnL counts on: the fee each lot was charged (`lots.trade_fee`, the amount of its `trade_fee`
 * ledger transfer, docs/fees.md#trading-fee), so a day's fee and its PnL come from the same lots.
 */
const tradeFees = async (
  ctx: ServiceContext,
  userId: number,
  bucket: 'day' | 'month',
  keys: readonly string[],
): Promise<Map<string, string>> => {
  if (keys.length === 0) return new Map();
  const format = bucket === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM';
  const rows = await ctx.prisma.$queryRaw<{ key: string; fee: bigint }[]>(Prisma.sql`
    SELECT to_char(l.closed_at AT TIME ZONE 'UTC', ${format}) AS key, SUM(l.trade_fee)::bigint AS fee
      FROM lots l
      JOIN coin_bots b ON b.id = l.coin_bot_id
     WHERE b.user_id = ${userId} AND l.trade_fee IS NOT NULL
       AND to_char(l.closed_at AT TIME ZONE 'UTC', ${format}) IN (${Prisma.join(keys)})
     GROUP BY 1`);
  return new Map(rows.map((row) => [row.key, fromMicro(BigInt(row.fee))]));
};

/** Realized PnL per UTC day, newest first: every day the user's bots sold something. */
export const listDailyPnl = async (
  ctx: ServiceContext,
  input: { userId: number } & Paging,
): Promise<PnlPage<DailyPnlRow>> => {
  const { offset, after } = positionOf(input, ZCursorDay);
  const [read, [count]] = await Promise.all([
    ctx.prisma.$queryRaw<DayRow[]>(Prisma.sql`
      SELECT date, SUM(realized_pnl)::text AS pnl, SUM(closed_trades)::int AS closed,
             SUM(profitable_trades)::int AS profitable
        FROM daily_pnl WHERE user_id = ${input.userId} AND (${after}::date IS NULL OR date < ${after}::date)
       GROUP BY date ORDER BY date DESC LIMIT ${input.limit + 1} OFFSET ${offset}`),
    ctx.prisma.$queryRaw<{ total: number }[]>(Prisma.sql`
      SELECT COUNT(DISTINCT date)::int AS total FROM daily_pnl WHERE user_id = ${input.userId}`),
  ]);
  const { rows, nextCursor } = keysetPage(read, input.limit, (row) => [dateOnly(row.date)]);
  const days = rows.map((row) => dateOnly(row.date));
  const fees = await tradeFees(ctx, input.userId, 'day', days);
  const total = count?.total ?? 0;
  return {
    items: rows.map((row, i) => ({
      date: days[i] as string,
      realizedPnl: usdtFigure(row.pnl),
      tradeFee: fees.get(days[i] as string) ?? '0',
      closedTrades: row.closed,
      profitableTrades: row.profitable,
    })),
    page: input.page,
    limit: input.limit,
    total,
    hasMore: nextCursor !== null,
    nextCursor,
  };
};

export type MonthlyPnlRow = Omit<DailyPnlRow, 'date'> & { month: string; tradingDays: number };

/** Realized PnL per UTC calendar month, newest first. */
export const listMonthlyPnl = async (
  ctx: ServiceContext,
  input: { userId: number } & Paging,
): Promise<PnlPage<MonthlyPnlRow>> => {
  const { offset, after } = positionOf(input, ZCursorMonth);
  // The month after the cursor's: its first day bounds the rows (the index on (user_id, date) serves it).
  const before = after === null ? null : `${after}-01`;
  const [read, [count]] = await Promise.all([
    ctx.prisma.$queryRaw<{ month: string; pnl: string; closed: number; profitable: number; days: number }[]>(
      Prisma.sql`
      SELECT to_char(date, 'YYYY-MM') AS month, SUM(realized_pnl)::text AS pnl,
             SUM(closed_trades)::int AS closed, SUM(profitable_trades)::int AS profitable,
             COUNT(DISTINCT CASE WHEN closed_trades > 0 THEN date END)::int AS days
        FROM daily_pnl WHERE user_id = ${input.userId} AND (${before}::date IS NULL OR date < ${before}::date)
       GROUP BY 1 ORDER BY 1 DESC LIMIT ${input.limit + 1} OFFSET ${offset}`,
    ),
    ctx.prisma.$queryRaw<{ total: number }[]>(Prisma.sql`
      SELECT COUNT(DISTINCT to_char(date, 'YYYY-MM'))::int AS total FROM daily_pnl WHERE user_id = ${input.userId}`),
  ]);
  const { rows, nextCursor } = keysetPage(read, input.limit, (row) => [row.month]);
  const fees = await tradeFees(
    ctx,
    input.userId,
    'month',
    rows.map((row) => row.month),
  );
  const total = count?.total ?? 0;
  return {
    items: rows.map((row) => ({
      month: row.month,
      realizedPnl: usdtFigure(row.pnl),
      tradeFee: fees.get(row.month) ?? '0',
      closedTrades: row.closed,
      profitableTrades: row.profitable,
      tradingDays: row.days,
    })),
    page: input.page,
    limit: input.limit,
    total,
    hasMore: nextCursor !== null,
    nextCursor,
  };
};

/**
 * One UTC day per coin: the coins that sold (realized PnL, trades) or bought (lots opened) that
 * day, best first. Sums equal that day's row of the daily list.
 */
export const getDailyCoinsPnl = async (ctx: ServiceContext, input: { userId: number; day: string }) => {
  const date = resolveDay(ctx, input.day);
  const from = new Date(`${date}T00:00:00.000Z`);
  const to = new Date(from.getTime() + DAY_MS);
  const rows = await ctx.prisma.$queryRaw<
    { coin: string; pnl: string; fee: bigint; closed: number; profitable: number; buys: number }[]
  >(Prisma.sql`
    WITH sold AS (
      SELECT coin_bot_id, realized_pnl, closed_trades, profitable_trades
        FROM daily_pnl WHERE user_id = ${input.userId} AND date = ${date}::date
    ), bought AS (
      SELECT l.coin_bot_id, COUNT(*)::int AS buys
        FROM lots l JOIN coin_bots b ON b.id = l.coin_bot_id
       WHERE b.user_id = ${input.userId} AND l.opened_at >= ${from} AND l.opened_at < ${to}
       GROUP BY l.coin_bot_id
    ), charged AS (
      SELECT l.coin_bot_id, SUM(l.trade_fee)::bigint AS fee
        FROM lots l JOIN coin_bots b ON b.id = l.coin_bot_id
       WHERE b.user_id = ${input.userId} AND l.closed_at >= ${from} AND l.closed_at < ${to}
         AND l.trade_fee IS NOT NULL
       GROUP BY l.coin_bot_id
    )
    SELECT b.coin, COALESCE(SUM(s.realized_pnl), 0)::text AS pnl,
           COALESCE(SUM(c.fee), 0)::bigint AS fee,
           COALESCE(SUM(s.closed_trades), 0)::int AS closed,
           COALESCE(SUM(s.profitable_trades), 0)::int AS profitable,
           COALESCE(SUM(o.buys), 0)::int AS buys
      FROM coin_bots b
      LEFT JOIN sold s ON s.coin_bot_id = b.id
      LEFT JOIN bought o ON o.coin_bot_id = b.id
      LEFT JOIN charged c ON c.coin_bot_id = b.id
     WHERE b.user_id = ${input.userId} AND (s.coin_bot_id IS NOT NULL OR o.coin_bot_id IS NOT NULL)
     GROUP BY b.coin`);
  const coins = rows
    .map((row) => ({
      coin: row.coin,
      realizedPnl: new Decimal(row.pnl),
      tradeFee: fromMicro(BigInt(row.fee)),
      closedTrades: row.closed,
      profitableTrades: row.profitable,
      buys: row.buys,
    }))
    .sort((a, b) => b.realizedPnl.comparedTo(a.realizedPnl) || a.coin.localeCompare(b.coin));
  const realizedPnl = coins.reduce((sum, coin) => sum.plus(coin.realizedPnl), new Decimal(0));
  return {
    date,
    realizedPnl: usdtFigure(realizedPnl),
    tradeFee: fromMicro(rows.reduce((sum, row) => sum + BigInt(row.fee), 0n)),
    coins: coins.map((coin) => ({ ...coin, realizedPnl: usdtFigure(coin.realizedPnl) })),
  };
};

/** The panel's profit chart: the last `days` UTC days up to today, oldest first, zero-filled. */
export const getProfitChart = async (
  ctx: ServiceContext,
  input: { userId: number; uid?: number | undefined; days: number },
) => {
  if (input.uid !== undefined) {
    const user = await ctx.prisma.user.findUniqueOrThrow({
      where: { id: input.userId },
      select: { uid: true },
    });
    if (user.uid !== input.uid) throw new AppError('FORBIDDEN');
  }
  const today = new Date(`${resolveDay(ctx, 'today')}T00:00:00.000Z`).getTime();
  const first = new Date(today - (input.days - 1) * DAY_MS);
  const rows = await ctx.prisma.$queryRaw<DayRow[]>(Prisma.sql`
    SELECT date, SUM(realized_pnl)::text AS pnl, SUM(closed_trades)::int AS closed, 0 AS profitable
      FROM daily_pnl WHERE user_id = ${input.userId} AND date >= ${first}::date
     GROUP BY date`);
  const byDay = new Map(rows.map((row) => [dateOnly(row.date), row]));
  let cumulative = new Decimal(0);
  const data = [];
  for (let i = 0; i < input.days; i++) {
    const date = new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10);
    const row = byDay.get(date);
    const pnl = new Decimal(row?.pnl ?? 0);
    cumulative = cumulative.plus(pnl);
    data.push({
      date,
      realizedPnl: usdtFigure(pnl),
      cumulativePnl: usdtFigure(cumulative),
      closedTrades: row?.closed ?? 0,
    });
  }
  return { data };
};

/**
 * Platform-wide rating of a UTC day: per coin with at least `minBots` running coin bots, Σ realized
 * PnL of that day over Σ committed capital (orderSize × maxTrades) of its running bots, best first
 * (docs/pnl.md#coin-rating). A coin held by fewer bots is left out, so no single user's result shows.
 */
export const getCoinRating = async (
  ctx: ServiceContext,
  input: { userId: number; day: string; minBots: number },
) => {
  const date = resolveDay(ctx, input.day);
  const rows = await ctx.prisma.$queryRaw<
    { coin: string; bots: number; capital: string; pnl: string; closed: number; mine: boolean }[]
  >(Prisma.sql`
    WITH held AS (
      SELECT coin, COUNT(*)::int AS bots, SUM(order_size * max_trades) AS capital
        FROM coin_bots WHERE running AND deleted_at IS NULL GROUP BY coin HAVING COUNT(*) >= ${input.minBots}
    ), sold AS (
      SELECT b.coin, SUM(d.realized_pnl) AS pnl, SUM(d.closed_trades)::int AS closed
        FROM daily_pnl d JOIN coin_bots b ON b.id = d.coin_bot_id
       WHERE d.date = ${date}::date GROUP BY b.coin
    )
    SELECT h.coin, h.bots, h.capital::text AS capital, COALESCE(s.pnl, 0)::text AS pnl,
           COALESCE(s.closed, 0)::int AS closed,
           EXISTS (SELECT 1 FROM coin_bots m WHERE m.user_id = ${input.userId} AND m.coin = h.coin AND m.deleted_at IS NULL) AS mine
      FROM held h LEFT JOIN sold s ON s.coin = h.coin`);
  const rated = rows
    .map((row) => ({
      coin: row.coin,
      profit: new Decimal(row.pnl).div(row.capital).times(100),
      closedTrades: row.closed,
      bots: row.bots,
      inPortfolio: row.mine,
    }))
    .sort((a, b) => b.profit.comparedTo(a.profit) || b.bots - a.bots || a.coin.localeCompare(b.coin))
    .slice(0, 100);
  return {
    date,
    coins: rated.map((coin, i) => ({
      rank: i + 1,
      coin: coin.coin,
      profitPct: coin.profit.toDecimalPlaces(4).toFixed(),
      closedTrades: coin.closedTrades,
      bots: coin.bots,
      inPortfolio: coin.inPortfolio,
    })),
  };
};
