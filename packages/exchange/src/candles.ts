import type { Exchange } from 'ccxt';
import { ExchangeError, guarded } from './errors';
import { dec } from './normalize';

/** One closed candle: open time (Unix ms) and prices/volume as the exchange's decimal text. */
export type ExchangeCandle = {
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: string;
};

export const CANDLE_INTERVALS = { '1m': 60_000, '5m': 300_000, '1h': 3_600_000 } as const;
export type CandleInterval = keyof typeof CANDLE_INTERVALS;

/** Binance answers at most 1000 klines per request. */
const PAGE = 1000;

/** The exchange's decimal (ccxt hands strings or doubles), in plain notation without trailing zeros. */
const text = (value: unknown): string | null => {
  const d = dec(value);
  return d && !d.isNeg() ? (d.isZero() ? '0' : d.toFixed()) : null;
};

/**
 * The closed candles of `symbol` with open time in [since, until), oldest first, fetched in pages
 * of 1000 (ccxt fetchOHLCV). Candles not yet closed at `until` are the caller's to exclude (pass an
 * `until` at or before the current candle's open). Failures are classified like every other call
 * (EXCHANGE_UNAVAILABLE, COIN_NOT_LISTED, …).
 */
export const fetchCandles = async (
  exchange: Exchange,
  symbol: string,
  interval: CandleInterval,
  since: number,
  until: number,
): Promise<ExchangeCandle[]> => {
  if (!exchange.has.fetchOHLCV) throw new ExchangeError('EXCHANGE_UNAVAILABLE', 'no fetchOHLCV');
  const size = CANDLE_INTERVALS[interval];
  const out: ExchangeCandle[] = [];
  let cursor = since;
  while (cursor < until) {
    const from = cursor;
    const page = await guarded(() =>
      exchange.fetchOHLCV(symbol, interval, from, PAGE, { endTime: until - 1 }),
    );
    let last = -1;
    for (const [time, open, high, low, close, volume] of page) {
      if (typeof time !== 'number' || time < from || time >= until || time <= last) continue;
      const o = text(open);
      const h = text(high);
      const l = text(low);
      const c = text(close);
      if (o === null || h === null || l === null || c === null) continue;
      out.push({ time, open: o, high: h, low: l, close: c, volume: text(volume) ?? '0' });
      last = time;
    }
    if (page.length < PAGE || last < 0) break;
    cursor = last + size;
  }
  return out;
};
