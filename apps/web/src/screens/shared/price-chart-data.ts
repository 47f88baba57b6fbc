import type { SeriesMarker, Time, UTCTimestamp } from 'lightweight-charts';
import { stepDecimals } from '../../format/decimal';

/**
 * The price chart's data, as the contracts carry it (decimal strings, ISO times), and what is
 * worked out from it before drawing: kept apart from the drawing so it is tested without a canvas.
 */
export type PriceChartCandle = { time: string; open: string; high: string; low: string; close: string };
export type PriceChartMarker = { time: string; side: 'buy' | 'sell'; price: string };
export type PriceChartLine = {
  price: string;
  side: 'buy' | 'sell';
  title: string;
  dashed?: boolean;
  /**
   * true (default): a title and an axis label, and the price scale keeps the line in view. false:
   * the line alone, seen when the price gets there (a deep ladder's far levels).
   */
  labelled?: boolean;
  /**
   * A planned order that is not resting on the exchange now (being placed, refused or missing,
   * docs/grid.md#on-the-exchange): drawn in the hint colour, its title saying so.
   */
  offBook?: boolean;
};

/**
 * Decimals on the price axis: the market's tick's when it is known, so a line's label is the price
 * the ladder shows (docs/conventions.md#money-and-numbers); else the candles' own, but no more than
 * about six significant digits of the last close need (3,000.59 rather than 3,000.59000000), at
 * least 2, at most 10.
 */
export const precisionOf = (candles: readonly PriceChartCandle[], tick: string | null = null) => {
  const tickDecimals = tick ? stepDecimals(tick) : null;
  if (tickDecimals !== null) return tickDecimals;
  let digits = 0;
  for (const c of candles.slice(-50)) {
    for (const value of [c.open, c.high, c.low, c.close]) {
      const dot = value.indexOf('.');
      if (dot >= 0) digits = Math.max(digits, value.length - dot - 1);
    }
  }
  const last = Number(candles.at(-1)?.close ?? 0);
  const needed = last > 0 ? 5 - Math.floor(Math.log10(last)) : 10;
  return Math.min(Math.max(Math.min(digits, needed), 2), 10);
};

/** Past this many markers they are drawn smaller, so a busy month stays readable. */
const MANY_MARKERS = 60;

/**
 * One marker per candle and side: fills land on the candle they happened in (the last one that
 * opened at or before them); fills before the first candle are left out.
 */
export const markersOnCandles = (
  candles: readonly PriceChartCandle[],
  markers: readonly PriceChartMarker[],
  colors: { buy: string; sell: string },
): SeriesMarker<Time>[] => {
  const opens = candles.map((c) => Date.parse(c.time));
  const groups = new Map<string, { time: UTCTimestamp; side: 'buy' | 'sell' }>();
  for (const marker of markers) {
    const at = Date.parse(marker.time);
    let lo = 0;
    let hi = opens.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (opens[mid]! <= at) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) continue;
    const time = Math.floor(opens[lo - 1]! / 1000) as UTCTimestamp;
    groups.set(`${time}:${marker.side}`, { time, side: marker.side });
  }
  const size = groups.size > MANY_MARKERS ? 0.6 : 1;
  return [...groups.values()]
    .sort((a, b) => a.time - b.time || (a.side === 'buy' ? -1 : 1))
    .map((group) => ({
      time: group.time,
      position: group.side === 'buy' ? 'belowBar' : 'aboveBar',
      shape: group.side === 'buy' ? 'arrowUp' : 'arrowDown',
      color: group.side === 'buy' ? colors.buy : colors.sell,
      size,
    }));
};
