import type { SavedMinute } from './klines';

const MINUTE = 60_000;

/** The shape of a made-up day: two sine waves (slow and fast) around `base`, as fractions of it. */
export type WaveShape = {
  slow: number;
  slowPeriod: number;
  fast: number;
  fastPeriod: number;
  /** How far high and low reach beyond open/close, as a fraction (0.002 = 0.2 %). */
  wick: number;
  /** Shifts the wave by this many minutes, so several markets do not move together. */
  phase?: number;
  volume?: string;
  trades?: number;
};

/**
 * A day of one-minute candles around `base` ending before the current minute (all the sandbox's
 * history keeps), for `history.load`: a market with a past the engine, the backtest and the chart
 * can read in tests and demos. Prices are made with floats and written with 4 decimals: made-up
 * data, never money.
 */
export const waveHistory = (base: number, shape: WaveShape, now = Date.now()): SavedMinute[] => {
  const current = now - (now % MINUTE);
  const phase = shape.phase ?? 0;
  let previous = base;
  return Array.from({ length: 1440 }, (_, k) => {
    const i = 1440 - k;
    const close = +(
      base *
      (1 +
        shape.slow * Math.sin((i + phase) / shape.slowPeriod) +
        shape.fast * Math.sin(i / shape.fastPeriod))
    ).toFixed(4);
    const open = previous;
    previous = close;
    return {
      openTime: current - i * MINUTE,
      open: open.toFixed(4),
      high: (Math.max(open, close) * (1 + shape.wick)).toFixed(4),
      low: (Math.min(open, close) * (1 - shape.wick)).toFixed(4),
      close: close.toFixed(4),
      volume: shape.volume ?? '10',
      trades: shape.trades ?? 3,
    };
  });
};
