import Decimal from 'decimal.js';
import type { GridSettings, GridState, Lot } from '../../src/grid/types';
import {
  allocateCandles,
  type CandleSeries,
  CLOSE,
  HIGH,
  LOW,
  OPEN,
  setCandlePrice,
} from '../../src/replay/candles';

export const d = (value: Decimal.Value) => new Decimal(value);

export const settingsOf = (
  orderSize: string,
  stepPct: string,
  stepIncreasePct: string,
  maxTrades: number,
): GridSettings => ({
  orderSize: d(orderSize),
  stepPct: d(stepPct),
  stepIncreasePct: d(stepIncreasePct),
  maxTrades,
});

export const T0 = Date.UTC(2024, 0, 1);
export const MINUTE = 60_000;

/** Lots at the given prices, seq 1.., each a buy of `orderSize` USDT without fee. */
export const stateWithLots = (prices: string[], orderSize = '100', firstSeq = 1): GridState => {
  const lots: Lot[] = prices.map((price, i) => ({
    seq: firstSeq + i,
    price: d(price),
    qty: d(orderSize).div(price),
    cost: d(orderSize),
    openedAt: new Date(T0 + i * MINUTE),
    realizedPnl: d(0),
  }));
  return { lots, nextSeq: firstSeq + prices.length };
};

/** Candles from [open, high, low, close] rows (decimal strings, kept exact, or numbers), one minute apart from T0. */
export const candlesOf = (
  rows: readonly (readonly [Decimal.Value, Decimal.Value, Decimal.Value, Decimal.Value])[],
): CandleSeries => {
  const series = allocateCandles(rows.length);
  rows.forEach(([open, high, low, close], i) => {
    series.time[i] = T0 + i * MINUTE;
    setCandlePrice(series, i, OPEN, String(open));
    setCandlePrice(series, i, HIGH, String(high));
    setCandlePrice(series, i, LOW, String(low));
    setCandlePrice(series, i, CLOSE, String(close));
  });
  return series;
};

/** Decimals as plain strings for readable equality checks. */
export const text = (value: Decimal | null) => (value === null ? null : value.toFixed());
