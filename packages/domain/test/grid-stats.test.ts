import { describe, expect, it } from 'vitest';
import { coinStateOf } from '../src/grid/coin-state';
import { applySellFill } from '../src/grid/fills';
import { coinStats, pnlByDay, pnlByMonth } from '../src/grid/stats';
import type { ClosedLot } from '../src/grid/types';
import { d, stateWithLots, text } from './support/build';

const closedAt = (iso: string, pnl: string): ClosedLot => ({
  seq: 1,
  buyPrice: d(1),
  sellPrice: d(1),
  qty: d(1),
  cost: d(100),
  proceeds: d(100).plus(pnl),
  pnl: d(pnl),
  openedAt: new Date('2024-01-01T00:00:00Z'),
  closedAt: new Date(iso),
  lotClosed: true,
  lotPnl: d(pnl),
  profitable: d(pnl).gt(0),
});

describe('coinStats (docs/grid.md "Stats per coin")', () => {
  it('values open lots at the last price and averages Σc / Σq', () => {
    // Lots of 100 USDT at 100 (qty 1) and at 80 (qty 1.25); last price 90.
    const stats = coinStats(stateWithLots(['100', '80']), [], d(90));
    expect(text(stats.openQty)).toBe('2.25');
    expect(text(stats.invested)).toBe('200');
    // 2.25 × 90 − 200 = 2.5
    expect(text(stats.unrealizedPnl)).toBe('2.5');
    // 200 / 2.25 = 88.888…
    expect(stats.avgPrice!.toFixed(6)).toBe('88.888889');
    expect(stats.openDeals).toBe(2);
  });

  it('sums realized PnL over closed lots and counts the profitable ones (pnl > 0 only)', () => {
    const closed = [
      closedAt('2024-01-01T10:00:00Z', '1.5'),
      closedAt('2024-01-02T10:00:00Z', '-0.25'),
      closedAt('2024-01-02T11:00:00Z', '0'),
    ];
    const stats = coinStats(stateWithLots([]), closed, d(1));
    expect(text(stats.realizedPnl)).toBe('1.25');
    expect(stats.profitableTrades).toBe(1);
    expect(stats.closedTrades).toBe(3);
  });

  it('reports no average price and zero unrealized PnL without lots', () => {
    const stats = coinStats(stateWithLots([]), [], d(5));
    expect(stats.avgPrice).toBeNull();
    expect(text(stats.unrealizedPnl)).toBe('0');
    expect(text(stats.openQty)).toBe('0');
  });

  it('keeps Σ realized + Σ open cost consistent through a partial sell', () => {
    const state = stateWithLots(['50'], '100'); // qty 2, cost 100
    const { state: after, closed } = applySellFill(state, {
      lotSeq: 1,
      price: d('55'),
      qty: d('0.5'),
      proceeds: d('27.5'),
      at: new Date('2024-01-03T00:00:00Z'),
    });
    const stats = coinStats(after, [closed], d(55));
    expect(text(stats.realizedPnl)).toBe('2.5');
    expect(text(stats.invested)).toBe('75');
    // 1.5 × 55 − 75 = 7.5: the same total gain as the whole lot at 55 (2 × 55 − 100 = 10).
    expect(text(stats.unrealizedPnl)).toBe('7.5');
    expect(text(stats.avgPrice)).toBe('50');
    // A part sold is PnL, not a trade: the lot is still open.
    expect([stats.closedTrades, stats.profitableTrades]).toEqual([0, 0]);
  });

  it('counts a lot sold in parts as one trade, judged on the sum of its parts', () => {
    const state = stateWithLots(['50'], '100'); // qty 2, cost 100
    const at = new Date('2024-01-03T00:00:00Z');
    const first = applySellFill(state, { lotSeq: 1, price: d(60), qty: d(1), proceeds: d(60), at }); // +10
    const next = new Date('2024-01-04T00:00:00Z');
    const last = applySellFill(first.state, {
      lotSeq: 1,
      price: d(45),
      qty: d(1),
      proceeds: d(45),
      at: next,
    }); // −5
    const stats = coinStats(last.state, [first.closed, last.closed], d(1));
    expect(text(stats.realizedPnl)).toBe('5');
    expect([stats.closedTrades, stats.profitableTrades]).toEqual([1, 1]);
    // Each part's PnL on its own day; the trade on the day of the last part.
    expect(pnlByDay([first.closed, last.closed]).map((b) => [b.period, text(b.pnl), b.trades])).toEqual([
      ['2024-01-03', '10', 0],
      ['2024-01-04', '-5', 1],
    ]);
  });
});

describe('PnL buckets (UTC)', () => {
  const closed = [
    closedAt('2024-01-31T23:59:59.999Z', '1'),
    closedAt('2024-02-01T00:00:00Z', '2'),
    closedAt('2024-02-01T23:00:00+05:00', '0.5'), // 18:00 UTC, still Feb 1
    closedAt('2024-01-15T12:00:00Z', '-0.25'),
  ];

  it('groups by the UTC day of the sale, ascending', () => {
    expect(pnlByDay(closed).map((b) => [b.period, text(b.pnl), b.trades])).toEqual([
      ['2024-01-15', '-0.25', 1],
      ['2024-01-31', '1', 1],
      ['2024-02-01', '2.5', 2],
    ]);
  });

  it('groups by the UTC month of the sale, ascending', () => {
    expect(pnlByMonth(closed).map((b) => [b.period, text(b.pnl), b.trades])).toEqual([
      ['2024-01', '0.75', 2],
      ['2024-02', '2.5', 2],
    ]);
  });

  it('returns nothing without closed lots', () => {
    expect(pnlByDay([])).toEqual([]);
    expect(pnlByMonth([])).toEqual([]);
  });
});

describe('coin state', () => {
  const base = { running: true, coinDry: false, dryAll: false, openLots: 2, maxTrades: 5, lastError: null };
  it('names what the bot is doing and why it is dry', () => {
    expect(coinStateOf(base)).toEqual({ state: 'running', dryReason: null });
    expect(coinStateOf({ ...base, openLots: 5 })).toEqual({ state: 'waiting', dryReason: null });
    expect(coinStateOf({ ...base, coinDry: true, dryAll: true })).toEqual({
      state: 'drying',
      dryReason: 'coin',
    });
    expect(coinStateOf({ ...base, dryAll: true, openLots: 0 })).toEqual({ state: 'dried', dryReason: 'all' });
    expect(coinStateOf({ ...base, feeBalanceEmpty: true })).toEqual({
      state: 'drying',
      dryReason: 'fee_balance_empty',
    });
    expect(coinStateOf({ ...base, licenseExpired: true, feeBalanceEmpty: true }).dryReason).toBe(
      'license_expired',
    );
    expect(coinStateOf({ ...base, running: false, coinDry: true })).toEqual({
      state: 'paused',
      dryReason: 'coin',
    });
    expect(coinStateOf({ ...base, lastError: 'NO_API_CONNECTION' })).toEqual({
      state: 'error',
      dryReason: null,
    });
  });
});
