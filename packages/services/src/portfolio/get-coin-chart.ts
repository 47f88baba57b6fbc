import { CHART_FILLS, type ChartRange, type CoinChart, type Exchange } from '@gridbot/contracts';
import { type CandleSeries, CLOSE, candleDecimal, decimalText, HIGH, LOW, OPEN } from '@gridbot/domain';
import { CANDLE_INTERVALS, type CandleInterval, type ExchangeCandle } from '@gridbot/exchange';
import Decimal from 'decimal.js';
import { loadCandles } from '../backtest/candle-cache';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { pickExchangeAccount } from '../exchange-keys/pick-exchange-account';
import { dec } from '../grid/coin-bot-state';
import { findPortfolioCoin } from './get-coin';
import { ladderView } from './ladder-view';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Each range: its span, the cached candle interval it is read in, and the candle shown (hourly
 * candles are merged four at a time for 30 days: 180 candles fit a phone, 720 do not).
 */
export const CHART_RANGE_SPECS: Record<
  ChartRange,
  { days: number; interval: CandleInterval; candleSize: CoinChart['candleSize']; candleMs: number }
> = {
  '1d': { days: 1, interval: '5m', candleSize: '5m', candleMs: CANDLE_INTERVALS['5m'] },
  '7d': { days: 7, interval: '1h', candleSize: '1h', candleMs: HOUR },
  '30d': { days: 30, interval: '1h', candleSize: '4h', candleMs: 4 * HOUR },
};

/**
 * [from, to) of the closed candles of a range at `now`: `to` is the open of the current (still
 * forming) candle, `from` the open of the first shown candle.
 */
export const chartWindow = (range: ChartRange, now: number) => {
  const spec = CHART_RANGE_SPECS[range];
  const size = CANDLE_INTERVALS[spec.interval];
  const to = now - (now % size);
  const start = to - spec.days * DAY;
  return { ...spec, size, from: start - (start % spec.candleMs), to };
};

type Bar = { time: number; open: Decimal; high: Decimal; low: Decimal; close: Decimal };

const barsOf = (series: CandleSeries): Bar[] =>
  Array.from({ length: series.length }, (_, i) => ({
    time: series.time[i]!,
    open: candleDecimal(series, i, OPEN),
    high: candleDecimal(series, i, HIGH),
    low: candleDecimal(series, i, LOW),
    close: candleDecimal(series, i, CLOSE),
  }));

/** Candles merged into `size`-long ones aligned to UTC (the first open, the last close, extremes). */
export const mergeBars = (bars: readonly Bar[], size: number): Bar[] => {
  const out: Bar[] = [];
  for (const bar of bars) {
    const time = bar.time - (bar.time % size);
    const last = out.at(-1);
    if (last && last.time === time) {
      if (bar.high.gt(last.high)) last.high = bar.high;
      if (bar.low.lt(last.low)) last.low = bar.low;
      last.close = bar.close;
    } else {
      out.push({ ...bar, time });
    }
  }
  return out;
};

/**
 * The candle still forming at `to`, straight from the exchange (never cached: it changes). A
 * failure leaves it out; the closed candles and the last price still answer.
 */
const currentCandle = async (
  ctx: ServiceContext,
  client: ReturnType<ServiceContext['exchanges']['forVenue']>,
  symbol: string,
  window: { interval: CandleInterval; size: number; to: number },
): Promise<Bar | null> => {
  let candles: ExchangeCandle[];
  try {
    candles = await client.fetchCandles(symbol, window.interval, window.to, window.to + window.size);
  } catch (error) {
    ctx.log.warn({ symbol, err: error }, 'current candle unavailable: the chart ends at the last closed one');
    return null;
  }
  const candle = candles.find((c) => c.time === window.to);
  if (!candle) return null;
  return {
    time: candle.time,
    open: new Decimal(candle.open),
    high: new Decimal(candle.high),
    low: new Decimal(candle.low),
    close: new Decimal(candle.close),
  };
};

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The coin page's price chart (docs/grid.md#coin-chart): the exchange's candles of the range,
 * closed ones through the backtest's candle cache plus the one still forming; the coin bot's fills
 * in the range; the ladder's next buy and take profits exactly as the coin page shows them.
 */
export const getCoinChart = async (
  ctx: ServiceContext,
  input: { userId: number; coin: string; exchange?: Exchange | undefined; range: ChartRange },
): Promise<CoinChart> => {
  const account = await pickExchangeAccount(ctx.prisma, { ...input, ambiguous: 'first' });
  if (!account) throw new AppError('API_KEYS_MISSING');
  const coin = await findPortfolioCoin(ctx, {
    userId: input.userId,
    coin: input.coin,
    exchange: input.exchange,
  });
  const now = ctx.clock.now();
  const window = chartWindow(input.range, now.getTime());

  // Candles are public: the venue's shared key-less client (markets loaded once per process).
  const client = ctx.exchanges.forVenue(coin.venue);
  await client.loadMarkets();
  const symbol = client.market(coin.bot.symbol).symbol;
  const [series, current, fills] = await Promise.all([
    loadCandles(
      ctx,
      client,
      { venue: coin.venue, symbol, interval: window.interval },
      { from: window.from, to: window.to },
    ),
    currentCandle(ctx, client, symbol, window),
    ctx.prisma.fill.findMany({
      where: { coinBotId: coin.bot.id, at: { gte: new Date(window.from) } },
      orderBy: [{ at: 'desc' }, { id: 'desc' }],
      take: CHART_FILLS + 1,
      select: {
        at: true,
        price: true,
        qty: true,
        order: { select: { side: true, role: true, lotSeq: true } },
      },
    }),
  ]);
  const bars = barsOf(series);
  if (current) bars.push(current);
  const ladder = ladderView(coin, { now });
  return {
    coin: coin.bot.coin,
    symbol: coin.bot.symbol,
    range: input.range,
    candleSize: window.candleSize,
    from: iso(window.from),
    to: now.toISOString(),
    candles: mergeBars(bars, window.candleMs).map((bar) => ({
      time: iso(bar.time),
      open: decimalText(bar.open),
      high: decimalText(bar.high),
      low: decimalText(bar.low),
      close: decimalText(bar.close),
    })),
    fills: fills
      .slice(0, CHART_FILLS)
      .reverse()
      .map((fill) => ({
        time: fill.at.toISOString(),
        side: fill.order.side === 'sell' ? 'sell' : 'buy',
        kind: fill.order.role as CoinChart['fills'][number]['kind'],
        price: dec(fill.price).toFixed(),
        qty: dec(fill.qty).toFixed(),
        lotNumber: fill.order.lotSeq,
      })),
    fillsTruncated: fills.length > CHART_FILLS,
    // Without a lot the ladder's first level is a what-if below an assumed entry, not an order.
    ladder: {
      nextBuy: ladder.openLots > 0 ? (ladder.buys[0] ?? null) : null,
      takeProfits: ladder.takeProfits,
    },
    lastPrice: ladder.lastPrice,
    priceTick: ladder.priceTick,
    qtyStep: ladder.qtyStep,
  };
};
