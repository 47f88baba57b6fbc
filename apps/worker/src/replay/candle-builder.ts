import {
  allocateCandles,
  type CandleSeries,
  type CandleValues,
  CLOSE,
  candleProblem,
  exactCandleProblem,
  HIGH,
  LOW,
  mayLoseDigits,
  OPEN,
  truncateCandles,
} from '@gridbot/domain';
import { parseUtcTime } from './utc-time';

/** A malformed candle file; the message names the file and line (CSV) or candle (JSON) and the problem. */
export class CandleFileError extends Error {
  override name = 'CandleFileError';
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DIGITS = /^\d+$/;

/** A price as a double, and its decimal text when it came as text (JSON numbers arrive as doubles already). */
export type ParsedPrice = { value: number; text: string | null };

export const parsePrice = (name: string, raw: unknown, where: string): ParsedPrice => {
  if (typeof raw === 'number') {
    if (Number.isFinite(raw)) return { value: raw, text: null };
  } else if (typeof raw === 'string') {
    const text = raw.trim();
    if (NUMBER.test(text)) return { value: Number(text), text };
  }
  throw new CandleFileError(`${where}: ${name} ${JSON.stringify(raw)} is not a number`);
};

/** Unix ms (the recorded files) or an ISO time, UTC unless it names a zone (utc-time.ts). */
export const parseTime = (raw: unknown, where: string): number => {
  if (typeof raw === 'number' && Number.isFinite(raw)) return raw;
  if (typeof raw === 'string') {
    const text = raw.trim();
    if (DIGITS.test(text)) return Number(text);
    const at = parseUtcTime(text);
    if (typeof at === 'number') return at;
    throw new CandleFileError(`${where}: time ${JSON.stringify(raw)} ${at}`);
  }
  throw new CandleFileError(`${where}: time ${JSON.stringify(raw)} is not a Unix ms time or an ISO time`);
};

export type ParsedCandle = {
  time: number;
  open: ParsedPrice;
  high: ParsedPrice;
  low: ParsedPrice;
  close: ParsedPrice;
};

/** Collects validated candles into typed arrays, growing them as needed; keeps the text of prices a double would not reproduce. */
export class CandleBuilder {
  #series: CandleSeries;
  #length = 0;
  #previousTime: number | null = null;

  constructor(expected = 1024) {
    this.#series = allocateCandles(Math.max(16, expected));
  }

  get length(): number {
    return this.#length;
  }

  push(candle: ParsedCandle, where: string): void {
    const values: CandleValues = {
      time: candle.time,
      open: candle.open.value,
      high: candle.high.value,
      low: candle.low.value,
      close: candle.close.value,
    };
    const problem = candleProblem(values, this.#previousTime);
    if (problem) throw new CandleFileError(`${where}: ${problem}`);
    if (this.#length === this.#series.length) this.#grow();
    const s = this.#series;
    const i = this.#length++;
    s.time[i] = values.time;
    s.open[i] = values.open;
    s.high[i] = values.high;
    s.low[i] = values.low;
    s.close[i] = values.close;
    let exact = false;
    for (const [field, price] of [
      [OPEN, candle.open],
      [HIGH, candle.high],
      [LOW, candle.low],
      [CLOSE, candle.close],
    ] as const) {
      if (price.text !== null && mayLoseDigits(price.text)) {
        s.exact.set(i * 4 + field, price.text);
        exact = true;
      }
    }
    if (exact) {
      const exactProblem = exactCandleProblem(s, i);
      if (exactProblem) throw new CandleFileError(`${where}: ${exactProblem}`);
    }
    this.#previousTime = values.time;
  }

  finish(): CandleSeries {
    if (this.#length === 0) throw new CandleFileError('the file holds no candles');
    return truncateCandles(this.#series, this.#length);
  }

  #grow(): void {
    const old = this.#series;
    const next = allocateCandles(old.length * 2);
    for (const key of ['time', 'open', 'high', 'low', 'close'] as const) next[key].set(old[key]);
    for (const [key, text] of old.exact) next.exact.set(key, text);
    this.#series = next;
  }
}
