import {
  allocateCandles,
  type CandleSeries,
  CLOSE,
  firstCandleAtOrAfter,
  HIGH,
  LOW,
  OPEN,
  setCandlePrice,
  truncateCandles,
} from '@gridbot/domain';
import type { CandleInterval, ExchangeClient } from '@gridbot/exchange';
import type { ServiceContext } from '../context/service-context';

/** Where candles come from: `<exchange>:<mode>`, the symbol and the interval. */
export type CandleKey = { venue: string; symbol: string; interval: CandleInterval };

type Range = { from: number; to: number };

/** [from, to) minus the covered ranges (sorted by from), in order. */
export const missingRanges = (window: Range, covered: readonly Range[]): Range[] => {
  const missing: Range[] = [];
  let cursor = window.from;
  for (const range of [...covered].sort((a, b) => a.from - b.from)) {
    if (range.to <= cursor) continue;
    if (range.from >= window.to) break;
    if (range.from > cursor) missing.push({ from: cursor, to: range.from });
    cursor = Math.max(cursor, range.to);
    if (cursor >= window.to) break;
  }
  if (cursor < window.to) missing.push({ from: cursor, to: window.to });
  return missing;
};

/** A view of the candles from index `start` on (typed-array views, no copy). */
const tailOf = (series: CandleSeries, start: number): CandleSeries => {
  if (start <= 0) return series;
  const exact = new Map<number, string>();
  for (const [key, text] of series.exact) if (key >= start * 4) exact.set(key - start * 4, text);
  return {
    length: series.length - start,
    time: series.time.subarray(start),
    open: series.open.subarray(start),
    high: series.high.subarray(start),
    low: series.low.subarray(start),
    close: series.close.subarray(start),
    exact,
  };
};

type Remembered = { from: number; to: number; series: CandleSeries; usedAt: number };

/** Recently used candle arrays, per database (tests run many): a repeat is answered from memory. */
const memories = new WeakMap<object, Map<string, Remembered>>();
const MEMORY_ENTRIES = 8;
/** Identical fills in flight, shared by concurrent requests of one process. */
const inFlight = new Map<string, Promise<void>>();

const keyOf = (key: CandleKey) => `${key.venue}|${key.symbol}|${key.interval}`;

const memoryOf = (ctx: ServiceContext) => {
  let memory = memories.get(ctx.prisma);
  if (!memory) {
    memory = new Map();
    memories.set(ctx.prisma, memory);
  }
  return memory;
};

const INSERT_CHUNK = 2000;

/** Fetches one missing range from the exchange and stores it (idempotent), then records it as covered. */
const fill = async (ctx: ServiceContext, client: ExchangeClient, key: CandleKey, range: Range) => {
  const candles = await client.fetchCandles(key.symbol, key.interval, range.from, range.to);
  for (let at = 0; at < candles.length; at += INSERT_CHUNK) {
    await ctx.prisma.candle.createMany({
      data: candles.slice(at, at + INSERT_CHUNK).map((c) => ({
        ...key,
        openTime: BigInt(c.time),
        open: c.open,
        high: c.high,
        low: c.low,
        close: c.close,
        volume: c.volume,
      })),
      skipDuplicates: true,
    });
  }
  // Extend the range this one continues, else record a new one.
  const where = { venue: key.venue, symbol: key.symbol, interval: key.interval };
  const { count } = await ctx.prisma.candleCoverage.updateMany({
    where: { ...where, toTime: BigInt(range.from), fromTime: { lte: BigInt(range.from) } },
    data: { toTime: BigInt(range.to) },
  });
  if (count === 0) {
    await ctx.prisma.candleCoverage.create({
      data: { ...where, fromTime: BigInt(range.from), toTime: BigInt(range.to) },
    });
  }
  return candles.length;
};

/** Makes [from, to) complete in the database: fetches only the ranges no coverage row holds. */
const ensureCovered = async (
  ctx: ServiceContext,
  client: ExchangeClient,
  key: CandleKey,
  window: Range,
): Promise<void> => {
  const flightKey = `${keyOf(key)}|${window.from}|${window.to}`;
  const running = inFlight.get(flightKey);
  if (running) return running;
  const work = (async () => {
    const rows = await ctx.prisma.candleCoverage.findMany({
      where: {
        venue: key.venue,
        symbol: key.symbol,
        interval: key.interval,
        toTime: { gt: BigInt(window.from) },
        fromTime: { lt: BigInt(window.to) },
      },
      select: { fromTime: true, toTime: true },
    });
    const covered = rows.map((r) => ({ from: Number(r.fromTime), to: Number(r.toTime) }));
    for (const range of missingRanges(window, covered)) await fill(ctx, client, key, range);
  })();
  inFlight.set(flightKey, work);
  try {
    await work;
  } finally {
    inFlight.delete(flightKey);
  }
};

type CandleRow = { t: bigint; o: string; h: string; l: string; c: string };

/** Reads stored candles with open time in [from, to) into typed arrays, with their own decimals. */
const readCandles = async (ctx: ServiceContext, key: CandleKey, window: Range): Promise<CandleSeries> => {
  const rows = await ctx.prisma.$queryRaw<CandleRow[]>`
    SELECT open_time AS t, open::text AS o, high::text AS h, low::text AS l, close::text AS c
    FROM candles
    WHERE venue = ${key.venue} AND symbol = ${key.symbol} AND interval = ${key.interval}
      AND open_time >= ${BigInt(window.from)} AND open_time < ${BigInt(window.to)}
    ORDER BY open_time`;
  const series = allocateCandles(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    series.time[i] = Number(row.t);
    setCandlePrice(series, i, OPEN, row.o);
    setCandlePrice(series, i, HIGH, row.h);
    setCandlePrice(series, i, LOW, row.l);
    setCandlePrice(series, i, CLOSE, row.c);
  }
  return series;
};

const concat = (a: CandleSeries, b: CandleSeries): CandleSeries => {
  if (b.length === 0) return a;
  const out = allocateCandles(a.length + b.length);
  for (const column of ['time', 'open', 'high', 'low', 'close'] as const) {
    out[column].set(a[column], 0);
    out[column].set(b[column], a.length);
  }
  for (const [k, v] of a.exact) out.exact.set(k, v);
  for (const [k, v] of b.exact) out.exact.set(k + a.length * 4, v);
  return out;
};

/**
 * The closed candles of [from, to) (to = the open of the current candle, never stored), as the
 * replay wants them. Served from memory when a recent request covered the window; otherwise the
 * missing ranges are fetched from the exchange and stored, and the database is read once (only
 * the new tail when memory holds the rest).
 */
export const loadCandles = async (
  ctx: ServiceContext,
  client: ExchangeClient,
  key: CandleKey,
  window: Range,
): Promise<CandleSeries> => {
  const memory = memoryOf(ctx);
  const id = keyOf(key);
  const known = memory.get(id);
  const now = Date.now();
  if (known && known.from <= window.from && known.to >= window.to) {
    known.usedAt = now;
    return sliceTo(known.series, window);
  }
  await ensureCovered(ctx, client, key, window);
  let series: CandleSeries;
  if (known && known.from <= window.from && known.to > window.from && known.to < window.to) {
    const head = tailOf(known.series, firstCandleAtOrAfter(known.series, window.from));
    series = concat(head, await readCandles(ctx, key, { from: known.to, to: window.to }));
  } else {
    series = await readCandles(ctx, key, window);
  }
  memory.set(id, { from: window.from, to: window.to, series, usedAt: now });
  if (memory.size > MEMORY_ENTRIES) {
    const oldest = [...memory.entries()].sort((a, b) => a[1].usedAt - b[1].usedAt)[0];
    if (oldest) memory.delete(oldest[0]);
  }
  return series;
};

/** The candles of [from, to) of a remembered series (a copy of that stretch). */
const sliceTo = (series: CandleSeries, window: Range): CandleSeries => {
  const start = firstCandleAtOrAfter(series, window.from);
  return truncateCandles(tailOf(series, start), firstCandleAtOrAfter(series, window.to) - start);
};
