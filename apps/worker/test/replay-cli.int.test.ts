import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  applyBuyFill,
  applySellFill,
  emptyGridState,
  type GridSettings,
  gridSettingsFromStrings,
  lotTotals,
  plan,
  type ReplayReport,
} from '@gridbot/domain';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  candleFile,
  compact,
  dir,
  MINUTE,
  near,
  replayJson,
  root,
  series,
  settingsArgs,
  T0,
  writeCsv,
} from './support/replay-cli';

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('replay CLI on hand-checked series', () => {
  it('entry, two averaging buys with the step increase, purchase limit, take profits, re-entry next candle, dry-from', () => {
    // S = 100, s = 10 %, d = 5 %, N = 3, no fee: every lot costs 100 and every take profit nets
    // q × 1.1p − 100 = 10. Levels below an entry at p: p × 0.9, then × 0.85 (the step increase).
    const file = series('hand.csv', [
      [100, 100, 100, 100], // 0: entry at the first open: lot 1 @ 100; B = 90, TP 110
      [100, 100, 90, 90], //   1: red O→H→L→C, low touches 90 exactly: lot 2 @ 90; B = 90 × 0.85 = 76.5, TP 99
      [80, 80, 60, 70], //     2: falls to 60: lot 3 @ 76.5 (TP 84.15); k = N = 3 so 76.5 × 0.8 = 61.2 is NOT bought
      [75, 100, 75, 100], //   3: green O→L→H→C rising to 100: TP 84.15 (lot 3) then 99 (lot 2); 110 waits
      [100, 112, 100, 105], // 4: TP 110 sells lot 1; the fall to 105 buys nothing (no lot, entry waits)
      [105, 106, 94, 95], //   5: re-entry at this open: lot 4 @ 105 (B 94.5, TP 115.5); low 94: lot 5 @ 94.5 (TP 103.95)
      [95, 104, 79, 80], //    6: dry from here: high 104 sells lot 5 at 103.95; the fall to 79 buys nothing
      [80, 120, 80, 119], //   7: TP 115.5 sells lot 4; dry, so no re-entry
      [119, 119, 50, 60], //   8: dried: nothing
    ]);
    const report = replayJson(file, [
      ...settingsArgs('10', '5', 3),
      '--fee',
      '0',
      '--dry-from',
      new Date(T0 + 6 * MINUTE).toISOString(),
    ]);
    expect(compact(report)).toEqual([
      [0, 'entry', '100', 1],
      [1, 'averaging', '90', 2],
      [2, 'averaging', '76.5', 3],
      [3, 'take_profit', '84.15', 3],
      [3, 'take_profit', '99', 2],
      [4, 'take_profit', '110', 1],
      [5, 'entry', '105', 4],
      [5, 'averaging', '94.5', 5],
      [6, 'take_profit', '103.95', 5],
      [7, 'take_profit', '115.5', 4],
    ]);
    const { fills, realizedPnl, ...totals } = report;
    expect(totals).toEqual({
      buys: 5,
      sells: 5,
      unrealizedPnl: '0',
      openLots: 0,
      openQty: '0',
      avgPrice: null,
      profitableTrades: 5,
      maxOpenLots: 3,
      capitalUsed: '300',
    });
    near(realizedPnl, '50'); // 5 take profits × 10
    for (const fill of fills.filter((f) => f.side === 'sell')) near(fill.pnl!, '10');
  });

  it('charges the fee in quote and values open lots at the last close', () => {
    // S = 100, s = 1 %, d = 0.1 %, N = 5, fee 0.1 %: every buy costs 100.1.
    const file = series('fees.csv', [
      [200, 200, 200, 200], // entry @ 200: q = 0.5; B = 198
      [200, 200, 196, 196], // low 196 ≤ 198: lot 2 @ 198, q = 100/198; B = 198 × 0.989 = 195.822
      [195, 195, 195, 195], // the open (195) already crossed 195.822: fills at 195.822, q = 100/195.822; next B 193.472136
    ]);
    const report = replayJson(file, settingsArgs('1', '0.1', 5));
    expect(compact(report).map((f) => f[2])).toEqual(['200', '198', '195.822']);
    expect(report.fills.map((f) => f.quoteAmount)).toEqual(['100.1', '100.1', '100.1']);
    expect([report.openLots, report.capitalUsed, report.realizedPnl]).toEqual([3, '300.3', '0']);
    // Σq = 0.5 + 0.50505050… + 0.51066703… = 1.5157183564665870025; Σc / Σq = 198.12387883198398981;
    // unrealized = Σq × 195 − 300.3 = −4.7349204890155345160.
    near(report.openQty, '1.515718356466587002481845757882158');
    near(report.avgPrice!, '198.1238788319839898116983534976803');
    near(report.unrealizedPnl, '-4.734920489015534516040077212979134');
  });

  it('sells a lot with the fee on both legs: 1 × 101 × 0.999 − 100.1 = 0.799', () => {
    const report = replayJson(
      series('tp-fee.csv', [
        [100, 100, 100, 100],
        [100, 101, 100, 101],
      ]),
      settingsArgs('1', '0', 2),
    );
    expect(report.fills[1]).toMatchObject({
      role: 'take_profit',
      price: '101',
      quoteAmount: '100.899',
      pnl: '0.799',
    });
  });

  it('reads JSON arrays and JSON objects the same as CSV', () => {
    const rows = [
      [T0, 10, 10, 10, 10, 1],
      [T0 + MINUTE, 10, 10, 9, 9.5, 1],
      [T0 + 2 * MINUTE, 9.5, 11, 9.5, 11, 1],
    ];
    const csv = writeCsv('same.csv', rows);
    const arrays = join(dir, 'same-arrays.json');
    writeFileSync(arrays, JSON.stringify(rows.map((r) => r.map(String))));
    const objects = join(dir, 'same-objects.json');
    writeFileSync(
      objects,
      JSON.stringify(
        rows.map(([time, open, high, low, close, volume]) => ({ time, open, high, low, close, volume })),
      ),
    );
    const args = settingsArgs('1', '0.1', 5);
    const expected = replayJson(csv, args);
    expect(expected.buys).toBeGreaterThan(1);
    expect(replayJson(arrays, args)).toEqual(expected);
    expect(replayJson(objects, args)).toEqual(expected);
  });
});

/** Re-derives the whole run from its fills with the planner: every fill must be an order plan() wanted at that moment. */
const checkAgainstPlanner = (report: ReplayReport, settings: GridSettings, feePct: Decimal) => {
  let state = emptyGridState();
  let realized = new Decimal(0);
  for (const fill of report.fills) {
    const orders = plan(state, settings, { running: true, dry: false });
    const at = new Date(fill.time);
    if (fill.side === 'buy') {
      const order = orders.find((o) => o.side === 'buy')!;
      expect([order.role, order.lotSeq]).toEqual([fill.role, fill.lotSeq]);
      if (order.price) expect(order.price.toFixed()).toBe(fill.price);
      const cost = settings.orderSize.times(feePct.div(100).plus(1));
      state = applyBuyFill(state, {
        seq: fill.lotSeq,
        price: new Decimal(fill.price),
        qty: new Decimal(fill.qty),
        cost,
        at,
      });
    } else {
      const order = orders.find((o) => o.key === `tp:${fill.lotSeq}`)!;
      expect(order.price!.toFixed()).toBe(fill.price);
      const sold = applySellFill(state, {
        lotSeq: fill.lotSeq,
        price: order.price!,
        qty: order.qty!,
        proceeds: new Decimal(fill.quoteAmount),
        at,
      });
      state = sold.state;
      realized = realized.plus(sold.closed.pnl);
      expect(sold.closed.pnl.toFixed()).toBe(fill.pnl);
    }
  }
  expect(state.lots.length).toBe(report.openLots);
  expect(lotTotals(state.lots).qty.toFixed()).toBe(new Decimal(report.openQty).toFixed());
  return realized;
};

describe.each([
  ['ADA-BTC-1m.csv', '100', '1', '0.1', 10], // prices ~5e-05
  ['NXT-BTC-1m.csv', '100', '0.5', '0', 30], // prices ~2.7e-05
  ['XRP-USDT-5m.csv', '100', '1', '0.1', 10],
  ['ETH-BTC-1m.csv', '25', '2', '0.5', 6],
] as const)('replay CLI on real candles: %s', (name, size, step, inc, maxTrades) => {
  const settings = gridSettingsFromStrings({
    orderSize: size,
    stepPct: step,
    stepIncreasePct: inc,
    maxTrades,
  });
  let report: ReplayReport;
  beforeAll(() => {
    report = replayJson(candleFile(name), settingsArgs(step, inc, maxTrades, size));
  });

  it('keeps its books: realized = Σ closed fills, buys − sells = open lots, counts match the fills', () => {
    const sells = report.fills.filter((f) => f.side === 'sell');
    const sum = sells.reduce((acc, f) => acc.plus(f.pnl!), new Decimal(0));
    expect(new Decimal(report.realizedPnl).eq(sum)).toBe(true);
    expect(report.buys - report.sells).toBe(report.openLots);
    expect(report.fills.filter((f) => f.side === 'buy')).toHaveLength(report.buys);
    expect(sells).toHaveLength(report.sells);
    expect(report.profitableTrades).toBe(sells.filter((f) => new Decimal(f.pnl!).gt(0)).length);
    expect(report.maxOpenLots).toBeLessThanOrEqual(maxTrades);
    // Every lot costs S × 1.001, so the most capital ever used is maxOpenLots of them.
    expect(report.capitalUsed).toBe(new Decimal(size).times('1.001').times(report.maxOpenLots).toFixed());
    expect(report.sells).toBeGreaterThan(5);
  });

  it('fills only orders the planner asked for, at their prices', () => {
    expect(checkAgainstPlanner(report, settings, new Decimal('0.1')).eq(report.realizedPnl)).toBe(true);
  });
});

describe('replay CLI as a process (the compiled bin, built on demand)', () => {
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ['apps/worker/bin/replay.mjs', ...args], { cwd: root, encoding: 'utf8' });

  it('prints exactly one JSON object through `npm run -s replay -- … --json` (no npm banner on stdout)', () => {
    const result = spawnSync(
      'npm',
      [
        'run',
        '-s',
        'replay',
        '--',
        '--candles',
        candleFile('XRP-USDT-1h.csv'),
        ...settingsArgs('1', '0.1', 10),
        '--json',
      ],
      { cwd: root, encoding: 'utf8' },
    );
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect((JSON.parse(result.stdout) as ReplayReport).buys).toBeGreaterThan(0);
  });

  it('answers --help with the usage', () => {
    const result = cli(['--help']);
    expect([result.status, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toMatch(/^Usage: npm run -s replay -- --candles/);
  });

  it('prints exactly one JSON object on stdout with --json', () => {
    const result = cli([
      '--candles',
      candleFile('XRP-USDT-1h.csv'),
      ...settingsArgs('1', '0.1', 10),
      '--json',
    ]);
    expect(result.status).toBe(0);
    const report = JSON.parse(result.stdout) as ReplayReport;
    expect(Object.keys(report)).toEqual([
      'buys',
      'sells',
      'realizedPnl',
      'unrealizedPnl',
      'openLots',
      'openQty',
      'avgPrice',
      'profitableTrades',
      'maxOpenLots',
      'capitalUsed',
      'fills',
    ]);
    expect(Object.keys(report.fills[0]!)).toEqual([
      'time',
      'side',
      'role',
      'price',
      'qty',
      'lotSeq',
      'quoteAmount',
      'pnl',
    ]);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('prints a human summary without --json and fails with a message and exit code on bad input', () => {
    const ok = cli(['--candles', candleFile('XRP-USDT-1h.csv'), ...settingsArgs('1', '0.1', 10)]);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/candles\s+100 \(2021-11-17 01:00 → /);
    expect(ok.stdout).toMatch(/realized PnL\s+\+\d+\.\d{6} USDT/);
    const bad = cli([
      '--candles',
      candleFile('XRP-USDT-1h.csv'),
      ...settingsArgs('1', '0.1', 10),
      '--fee',
      'x',
    ]);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/--fee must be a non-negative decimal number, got 'x'/);
  });
});
