import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateCandles, type CandleSeries } from '../src/replay/candles';
import { replayGrid } from '../src/replay/report';
import { d, MINUTE, T0 } from './support/build';
import { referenceReplay } from './support/reference-replay';

/** A random walk of candles on a price grid of `tick` (e.g. 0.01 or 1e-8), with gaps at some opens. */
const candlesArb = (tick: number, decimals: number) =>
  fc
    .array(
      fc.record({
        gap: fc.integer({ min: -400, max: 400 }),
        gapped: fc.boolean(),
        move: fc.integer({ min: -600, max: 600 }),
        up: fc.nat({ max: 300 }),
        down: fc.nat({ max: 300 }),
      }),
      { minLength: 1, maxLength: 80 },
    )
    .map((steps): CandleSeries => {
      const series = allocateCandles(steps.length);
      let last = 10_000;
      const price = (units: number) => Number((units * tick).toFixed(decimals));
      steps.forEach((s, i) => {
        const open = Math.max(1_000, last + (s.gapped ? s.gap : 0));
        const close = Math.max(1_000, open + s.move);
        const high = Math.max(open, close) + s.up;
        const low = Math.max(500, Math.min(open, close) - s.down);
        series.time[i] = T0 + i * MINUTE;
        [series.open[i], series.high[i], series.low[i], series.close[i]] = [
          price(open),
          price(high),
          price(low),
          price(close),
        ];
        last = close;
      });
      return series;
    });

const settingsArb = fc.record({
  step: fc.constantFrom('0.5', '1', '1.5', '2', '5'),
  increase: fc.constantFrom('0', '0.1', '0.25', '1'),
  maxTrades: fc.integer({ min: 1, max: 8 }),
  fee: fc.constantFrom('0', '0.1', '0.075'),
  dryAt: fc.option(fc.integer({ min: 0, max: 90 }), { nil: null }),
});

const agree = (tick: number, decimals: number) =>
  fc.assert(
    fc.property(candlesArb(tick, decimals), settingsArb, (candles, s) => {
      const settings = {
        orderSize: d(100),
        stepPct: d(s.step),
        stepIncreasePct: d(s.increase),
        maxTrades: s.maxTrades,
      };
      const dryFrom = s.dryAt === null ? null : new Date(T0 + s.dryAt * MINUTE);
      const fast = replayGrid({ candles, settings, feePct: d(s.fee), dryFrom });
      expect(fast).toEqual(referenceReplay(candles, settings, d(s.fee), dryFrom));
      expect(fast.openLots).toBeLessThanOrEqual(s.maxTrades);
      expect(fast.buys - fast.sells).toBe(fast.openLots);
      if (dryFrom)
        expect(fast.fills.filter((f) => f.side === 'buy' && Date.parse(f.time) >= dryFrom.getTime())).toEqual(
          [],
        );
    }),
    { numRuns: 400 },
  );

describe('the fast replay agrees digit for digit with a naive replay built on plan() and the fill functions', () => {
  // 400 random replays each through the naive reference: seconds on a busy shared machine.
  const slow = { timeout: 60_000 };
  it('on prices around 100 with cent ticks', slow, () => agree(0.01, 2));
  it('on prices around 5e-05 (satoshi ticks, where float maths drifts)', slow, () => agree(5e-9, 10));
  it('on coarse prices where triggers are hit exactly', slow, () => agree(1, 0));
});
