import {
  allocateCandles,
  type CandleSeries,
  type CandleValues,
  candleProblem,
  truncateCandles,
} from '@gridbot/domain';

/** A malformed candle file; the message names the line (CSV) or candle (JSON) and the problem. */
export class CandleFileError extends Error {
  override name = 'CandleFileError';
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/;

export const parsePrice = (name: string, raw: unknown, where: string): number => {
  if (typeof raw === 'number') {
    if (Number.isFinite(raw)) return raw;
  } else if (typeof raw === 'string' && NUMBER.test(raw.trim())) {
    return Number(raw.trim());
  }
  throw new CandleFileError(`${where}: ${name} ${JSON.stringify(raw)} is not a number`);
};

/** Unix ms (the recorded files) or an ISO time. */
export const parseTime = (raw: unknown, where: string): number => {
  if (typeof raw === 'string' && ISO_TIME.test(raw.trim())) {
    const ms = Date.parse(raw.trim());
    if (!Number.isNaN(ms)) return ms;
  }
  return parsePrice('time', raw, where);
};

/** Collects validated candles into typed arrays, growing them as needed. */
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

  push(candle: CandleValues, where: string): void {
    const problem = candleProblem(candle, this.#previousTime);
    if (problem) throw new CandleFileError(`${where}: ${problem}`);
    if (this.#length === this.#series.length) this.#grow();
    const s = this.#series;
    const i = this.#length++;
    s.time[i] = candle.time;
    s.open[i] = candle.open;
    s.high[i] = candle.high;
    s.low[i] = candle.low;
    s.close[i] = candle.close;
    this.#previousTime = candle.time;
  }

  finish(): CandleSeries {
    if (this.#length === 0) throw new CandleFileError('the file holds no candles');
    return truncateCandles(this.#series, this.#length);
  }

  #grow(): void {
    const old = this.#series;
    const next = allocateCandles(old.length * 2);
    for (const key of ['time', 'open', 'high', 'low', 'close'] as const) next[key].set(old[key]);
    this.#series = next;
  }
}
