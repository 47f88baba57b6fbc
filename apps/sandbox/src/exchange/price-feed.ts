import { readFileSync } from 'node:fs';
import type { Decimal } from 'decimal.js';
import { Dec } from './money';

/** One recorded candle; prices as decimal strings (never floats). */
export type Candle = { time: number; open: string; high: string; low: string; close: string; volume: string };

/** Where a market's prices come from. */
export type PriceFeedSpec =
  /** A price that only moves when the control API sets it. */
  | { kind: 'fixed'; price: string }
  /** A deterministic random walk: each step moves at most `volatilityPct` % (default 0.5) up or down. */
  | { kind: 'random-walk'; start: string; seed?: number; volatilityPct?: number }
  /**
   * Real candles replayed: each candle becomes the path O→L→H→C (rising) or O→H→L→C (falling),
   * one point per step, rescaled so that the first close equals `firstClose` (e.g. a BTC-quoted
   * series turned into a USDT price level). At the end it starts again from the first candle,
   * rescaled to continue from the last close.
   */
  | { kind: 'candles'; candles: Candle[]; firstClose?: string };

/**
 * Where a feed stands, so that a restarted sandbox continues the same path instead of starting it
 * again (decimals as plain decimal strings).
 */
export type FeedPosition =
  | { kind: 'fixed' }
  | { kind: 'random-walk'; price: string; rng: number }
  | { kind: 'candles'; index: number; scale: string };

export type PriceFeed = {
  next(): Decimal;
  readonly start: Decimal;
  position(): FeedPosition;
  /** Continues from a saved position of a feed of the same kind. */
  seek(position: FeedPosition): void;
};

/** mulberry32: tiny, seedable, good enough to make a price wiggle reproducibly. */
const mulberry32 = (seed: number) => {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return {
    next,
    get state() {
      return a;
    },
    set state(value: number) {
      a = value >>> 0;
    },
  };
};

const wrongKind = (expected: string, position: FeedPosition) =>
  new Error(`a ${expected} feed cannot continue from a ${position.kind} position`);

const TWO_POW_32 = new Dec(2).pow(32);

const randomWalk = (start: Decimal, seed: number, volatilityPct: Decimal): PriceFeed => {
  const random = mulberry32(seed);
  let price = start;
  return {
    start,
    next() {
      // u in [0, 1) from an integer, so the walk is exact decimal arithmetic and reproducible.
      const u = new Dec(random.next()).div(TWO_POW_32);
      price = price.mul(u.mul(2).sub(1).mul(volatilityPct).div(100).add(1));
      return price;
    },
    position: () => ({ kind: 'random-walk', price: price.toFixed(), rng: random.state }),
    seek(position) {
      if (position.kind !== 'random-walk') throw wrongKind('random-walk', position);
      price = new Dec(position.price);
      random.state = position.rng;
    },
  };
};

const candlePath = (candle: Candle): string[] =>
  new Dec(candle.close).gte(candle.open)
    ? [candle.open, candle.low, candle.high, candle.close]
    : [candle.open, candle.high, candle.low, candle.close];

const candleReplay = (candles: Candle[], firstClose: string | undefined): PriceFeed => {
  const first = candles[0];
  const last = candles.at(-1);
  if (!first || !last) throw new Error('a candle feed needs at least one candle');
  const points = candles.flatMap(candlePath).map((p) => new Dec(p));
  let scale = firstClose ? new Dec(firstClose).div(first.close) : new Dec(1);
  let index = 0;
  return {
    start: new Dec(first.open).mul(scale),
    next() {
      if (index === points.length) {
        // Loop: the next round starts where this one ended instead of jumping back.
        scale = scale.mul(last.close).div(first.open);
        index = 0;
      }
      return points[index++]!.mul(scale);
    },
    position: () => ({ kind: 'candles', index, scale: scale.toFixed() }),
    seek(position) {
      if (position.kind !== 'candles') throw wrongKind('candles', position);
      if (!Number.isInteger(position.index) || position.index < 0 || position.index > points.length) {
        throw new Error(
          `candle position ${position.index} is outside this series of ${points.length} points`,
        );
      }
      index = position.index;
      scale = new Dec(position.scale);
    },
  };
};

export const createPriceFeed = (spec: PriceFeedSpec): PriceFeed => {
  switch (spec.kind) {
    case 'fixed': {
      const price = new Dec(spec.price);
      return {
        start: price,
        next: () => price,
        position: () => ({ kind: 'fixed' }),
        seek: (position) => {
          if (position.kind !== 'fixed') throw wrongKind('fixed', position);
        },
      };
    }
    case 'random-walk':
      return randomWalk(new Dec(spec.start), spec.seed ?? 1, new Dec(spec.volatilityPct ?? 0.5));
    case 'candles':
      return candleReplay(spec.candles, spec.firstClose);
  }
};

const PRICE = /^\d+(\.\d+)?(e-?\d+)?$/i;

/** Reads a `time,open,high,low,close,volume` CSV (the files in data/candles). */
export const loadCandleFile = (path: string): Candle[] => {
  const lines = readFileSync(path, 'utf8').split(/\r?\n/).filter(Boolean);
  const header = lines.shift();
  if (header?.trim() !== 'time,open,high,low,close,volume') {
    throw new Error(`${path}: expected the header time,open,high,low,close,volume`);
  }
  return lines.map((line, i) => {
    const [time, open, high, low, close, volume] = line.split(',');
    const prices = [open, high, low, close];
    if (!time || !/^\d+$/.test(time) || prices.some((p) => !p || !PRICE.test(p))) {
      throw new Error(`${path}:${i + 2}: malformed candle "${line}"`);
    }
    return { time: Number(time), open: open!, high: high!, low: low!, close: close!, volume: volume ?? '0' };
  });
};
