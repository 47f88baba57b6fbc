import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { allocateCandles } from '../src/replay/candles';
import { type ReplayReport, replayGrid } from '../src/replay/report';
import { candlesOf, d, MINUTE, settingsOf, T0 } from './support/build';

type Row = [number | string, number | string, number | string, number | string];

const replay = (
  rows: Row[],
  opts: { s?: string; inc?: string; n?: number; fee?: string; dryFrom?: Date } = {},
) =>
  replayGrid({
    candles: candlesOf(rows),
    settings: settingsOf('100', opts.s ?? '10', opts.inc ?? '5', opts.n ?? 10),
    feePct: d(opts.fee ?? '0'),
    dryFrom: opts.dryFrom ?? null,
  });

/** [candle index, role, price, lotSeq] per fill, for compact expectations. */
const trades = (report: ReplayReport) =>
  report.fills.map((f) => [(Date.parse(f.time) - T0) / MINUTE, f.role, f.price, f.lotSeq]);

// S = 100, s = 10 %, d = 5 %, fee 0 unless said: levels 100 → 90 → 76.5 (90 × 0.85) → 61.2 (76.5 × 0.8).
describe('replay path rules (docs/replay.md)', () => {
  it('enters at the first open, then plays the rest of that candle with the new orders', () => {
    // Falling candle O → H → L → C: entry at 100, B = 90 touched on the way to the low of 90.
    expect(trades(replay([[100, 101, 90, 95]]))).toEqual([
      [0, 'entry', '100', 1],
      [0, 'averaging', '90', 2],
    ]);
  });

  it('fills several averaging buys on one falling segment, deepest last, while trigger ≥ the segment end', () => {
    expect(
      trades(
        replay([
          [100, 100, 100, 100],
          [100, 100, 70, 75],
        ]),
      ).slice(1),
    ).toEqual([
      [1, 'averaging', '90', 2],
      [1, 'averaging', '76.5', 3],
    ]);
  });

  it('fills orders the open already crossed first, at their own prices', () => {
    // Gap down to 80: B = 90 fills at 90 (not 80); the next B = 76.5 is below 80 and waits.
    const down = replay([
      [100, 100, 100, 100],
      [80, 81, 79, 80],
    ]);
    expect(trades(down).slice(1)).toEqual([[1, 'averaging', '90', 2]]);
    // Gap up to 120: the take profit at 110 fills at 110.
    expect(
      trades(
        replay([
          [100, 100, 100, 100],
          [120, 121, 119, 120],
        ]),
      ).slice(1),
    ).toEqual([[1, 'take_profit', '110', 1]]);
  });

  it('sells take profits in ascending order (newest lot first) on a rising segment', () => {
    // Lots at 100, 90, 76.5; take profits 110, 99, 84.15. A rising candle from 70 to 105 sells 84.15 then 99.
    const report = replay([
      [100, 100, 100, 100],
      [100, 100, 70, 70],
      [70, 105, 70, 105],
    ]);
    expect(trades(report).slice(3)).toEqual([
      [2, 'take_profit', '84.15', 3],
      [2, 'take_profit', '99', 2],
    ]);
    expect(report.openLots).toBe(1);
  });

  it('follows O → L → H → C for a green candle and O → H → L → C for a red one', () => {
    // Lot at 100 (B 90, TP 110). Green candle: low first (buy 90, its TP 99), then high 112 sells 99 and 110.
    const green = replay([
      [100, 100, 100, 100],
      [100, 112, 89, 111],
    ]);
    expect(
      trades(green)
        .slice(1)
        .map((t) => t[2]),
    ).toEqual(['90', '99', '110']);
    // Red candle, same range: high first sells 110 (no lots left), the low then buys nothing.
    const red = replay([
      [100, 100, 100, 100],
      [100, 112, 89, 90],
    ]);
    expect(
      trades(red)
        .slice(1)
        .map((t) => t[2]),
    ).toEqual(['110']);
  });

  it('re-enters at the open of the candle after the last lot sells, not later in the same candle', () => {
    const report = replay([
      [100, 100, 100, 100],
      [100, 111, 80, 80],
      [85, 86, 84, 85],
    ]);
    // Candle 1 is red: the high sells the lot at 110; the fall to 80 buys nothing (no lot, entry waits).
    expect(trades(report)).toEqual([
      [0, 'entry', '100', 1],
      [1, 'take_profit', '110', 1],
      [2, 'entry', '85', 2],
    ]);
  });

  it('stops buying at the purchase limit and only sells', () => {
    const report = replay(
      [
        [100, 100, 100, 100],
        [100, 100, 10, 10],
      ],
      { n: 3 },
    );
    expect(report.buys).toBe(3);
    expect(report.maxOpenLots).toBe(3);
    expect(report.capitalUsed).toBe('300');
  });

  it('is dry from the first candle at or after dryFrom: no entry, no averaging, sells continue', () => {
    const rows: Row[] = [
      [100, 100, 100, 100],
      [100, 100, 95, 95],
      [95, 100, 80, 100],
      [100, 111, 100, 111],
      [111, 111, 50, 60],
    ];
    const report = replay(rows, { dryFrom: new Date(T0 + 2 * MINUTE - 1) });
    // Candle 2 would have bought at 90 and candle 4 would have re-entered; dry, only the take profit sells.
    expect(trades(report)).toEqual([
      [0, 'entry', '100', 1],
      [3, 'take_profit', '110', 1],
    ]);
    expect(trades(replay(rows, { dryFrom: new Date(T0 - 1) }))).toEqual([]);
  });

  it('touches exactly: low == trigger fills, a hair above does not', () => {
    // s = 1, d = 0.1: B = 97.911 after lots at 100 and 99.
    const base: Row[] = [[100, 100, 99, 99]];
    expect(replay([...base, [98, 98, '97.911', 98]], { s: '1', inc: '0.1' }).buys).toBe(3);
    expect(replay([...base, [98, 98, '97.9110000001', 98]], { s: '1', inc: '0.1' }).buys).toBe(2);
  });

  it('prices of 5e-05 hit their take profit where float maths would miss it', () => {
    // 0.00005352 × 1.01 is 0.0000540552 exactly, but 5.352e-05 * 1.01 in doubles is 0.000054055200000000004.
    expect(5.352e-5 * 1.01).toBeGreaterThan(0.0000540552);
    const report = replay(
      [
        ['0.00005352', '0.00005352', '0.00005352', '0.00005352'],
        ['0.0000536', '0.0000540552', '0.0000536', '0.000054'],
      ],
      { s: '1', inc: '0.1' },
    );
    expect(trades(report)).toEqual([
      [0, 'entry', '0.00005352', 1],
      [1, 'take_profit', '0.0000540552', 1],
    ]);
  });

  it('reports fees in quote: q = S/p, c = S × (1 + f), proceeds = q × T × (1 − f)', () => {
    const report = replay(
      [
        [100, 100, 100, 100],
        [100, 110, 100, 110],
      ],
      { fee: '0.1' },
    );
    expect(report.fills.map((f) => [f.qty, f.quoteAmount, f.pnl])).toEqual([
      ['1', '100.1', null],
      ['1', '109.89', '9.79'],
    ]);
    expect(report.realizedPnl).toBe('9.79');
  });

  it('returns an empty report for no candles', () => {
    expect(
      replayGrid({ candles: allocateCandles(0), settings: settingsOf('10', '1', '0', 3), feePct: d(0) }),
    ).toEqual({
      buys: 0,
      sells: 0,
      realizedPnl: '0',
      unrealizedPnl: '0',
      openLots: 0,
      openQty: '0',
      avgPrice: null,
      profitableTrades: 0,
      maxOpenLots: 0,
      capitalUsed: '0',
      fills: [],
    });
  });

  it('reports progress in chunks when asked', () => {
    const calls: number[] = [];
    replayGrid({
      candles: candlesOf([[1, 1, 1, 1]]),
      settings: settingsOf('10', '1', '0', 3),
      feePct: d(0),
      onProgress: (done) => calls.push(done),
    });
    expect(calls).toEqual([1]);
  });
});

describe('exact touch decisions', () => {
  it('decides by the decimals when the doubles cannot tell them apart', () => {
    // Entry 1, s = 1: TP 1.01. A high of 1.00999999999999999999 is the double 1.01 but does not reach it.
    expect(Number('1.00999999999999999999')).toBe(1.01);
    const rows = (high: string): Row[] => [
      [1, 1, 1, 1],
      [1, high, 1, 1],
    ];
    expect(replay(rows('1.00999999999999999999'), { s: '1', inc: '0' }).sells).toBe(0);
    expect(replay(rows('1.01'), { s: '1', inc: '0' }).sells).toBe(1);
  });

  it('fills a deep ladder level only when the low reaches its exact price, not 1e-40 short of it', () => {
    // s = 1, d = 0.1 from entry 0.00005352: lot 8 at 0.00005352 × 0.99 × 0.989 × … × 0.984, exactly
    // 24 significant digits — beyond a double and decimal.js's default 20.
    const Wide = Decimal.clone({ precision: 200 });
    const levels = [new Wide('0.00005352')];
    for (const pct of ['1', '1.1', '1.2', '1.3', '1.4', '1.5', '1.6'])
      levels.push(levels.at(-1)!.times(new Wide(1).minus(new Wide(pct).div(100))));
    const deepest = levels.at(-1)!;
    expect(deepest.sd()).toBeGreaterThan(20);
    const fall = (low: Decimal): Row[] => [
      ['0.00005352', '0.00005352', '0.00005352', '0.00005352'],
      ['0.00005352', '0.00005352', low.toFixed(), '0.00005352'],
    ];
    const opts = { s: '1', inc: '0.1', n: 10 };
    const hair = new Wide('1e-40');
    expect(replay(fall(deepest), opts).buys).toBe(8);
    expect(replay(fall(deepest.plus(hair)), opts).buys).toBe(7);
    expect(replay(fall(deepest.minus(hair)), opts).buys).toBe(8);
    const buys = replay(fall(deepest), opts).fills.filter((f) => f.side === 'buy');
    expect(buys.at(-1)!.price).toBe(deepest.toFixed());
  });

  it('treats equality as a touch both ways', () => {
    // Low 0.99 = B of lot 2 (buys), high 1.01 = the TP of lot 1 (after 0.9999, lot 2's).
    const report = replay(
      [
        [1, 1, 1, 1],
        [1, '1.01', '0.99', 1],
      ],
      { s: '1', inc: '0' },
    );
    expect(report.fills.map((f) => f.price)).toEqual(['1', '0.99', '0.9999', '1.01']);
  });
});

describe('exact PnL signs', () => {
  it('counts a lot that breaks even exactly as not profitable, at any price (fee 20 %, step 50 %: 1.5 × 0.8 = 1.2)', () => {
    for (const price of ['3', '0.00000007', '7.123456789012345678', '12345.6789']) {
      const p = d(price);
      const report = replay(
        [
          [price, price, price, price],
          [price, p.times('1.5').toFixed(), price, p.times('1.5').toFixed()],
        ],
        { s: '50', inc: '0', n: 1, fee: '20' },
      );
      expect(report.sells).toBe(1);
      expect(report.fills[1]!.pnl).toBe('0');
      expect(report.realizedPnl).toBe('0');
      expect(report.profitableTrades).toBe(0);
    }
  });
});
