import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyBuyFill, applySellFill } from '../src/grid/fills';
import { quoteFeeBuy, quoteFeeSellProceeds } from '../src/grid/formulas';
import { emptyGridState, plan } from '../src/grid/plan';
import { coinStats } from '../src/grid/stats';
import type { BuyFill, ClosedLot, GridFlags, GridSettings, GridState } from '../src/grid/types';
import { d, T0 } from './support/build';

/** Enough digits for any ladder in these tests to be exact. */
const Wide = Decimal.clone({ precision: 2000 });

const FEE = d('0.1');

const settingsArb: fc.Arbitrary<GridSettings> = fc
  .record({
    orderSize: fc.integer({ min: 6, max: 1000 }),
    stepTenths: fc.integer({ min: 5, max: 100 }),
    increaseHundredths: fc.integer({ min: 0, max: 200 }),
    maxTrades: fc.integer({ min: 1, max: 12 }),
  })
  .map((s) => ({
    orderSize: d(s.orderSize),
    stepPct: d(s.stepTenths).div(10),
    stepIncreasePct: d(s.increaseHundredths).div(100),
    maxTrades: s.maxTrades,
  }));

type Event =
  | { kind: 'buy'; marketPrice: number }
  | { kind: 'sell'; pick: number; partsOf4: number }
  | { kind: 'dry'; on: boolean }
  | { kind: 'pause'; on: boolean }
  | { kind: 'repeatLastBuy' };

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('buy' as const),
      marketPrice: fc.integer({ min: 1, max: 100_000 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('sell' as const),
      pick: fc.nat(),
      partsOf4: fc.integer({ min: 1, max: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dry' as const), on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('pause' as const), on: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'repeatLastBuy' as const }) },
);

type World = {
  state: GridState;
  closed: ClosedLot[];
  flags: GridFlags;
  lastBuy: BuyFill | null;
  clock: number;
};

/** Applies one event the way a live worker would: only orders the planner asked for get filled. */
const step = (world: World, settings: GridSettings, event: Event): void => {
  world.clock += 60_000;
  const at = new Date(world.clock);
  const orders = plan(world.state, settings, world.flags);
  if (event.kind === 'dry') world.flags = { ...world.flags, dry: event.on };
  if (event.kind === 'pause') world.flags = { ...world.flags, running: !event.on };
  if (event.kind === 'repeatLastBuy' && world.lastBuy) {
    expect(() => applyBuyFill(world.state, world.lastBuy!)).toThrow();
  }
  if (event.kind === 'buy') {
    const buy = orders.find((o) => o.side === 'buy');
    if (!buy) return;
    const price = buy.price ?? d(event.marketPrice).div(100);
    const { qty, cost } = quoteFeeBuy(settings.orderSize, price, FEE);
    world.lastBuy = { seq: buy.lotSeq, price, qty, cost, at };
    world.state = applyBuyFill(world.state, world.lastBuy);
  }
  if (event.kind === 'sell') {
    const sells = orders.filter((o) => o.side === 'sell');
    const tp = sells[event.pick % Math.max(1, sells.length)];
    if (!tp) return;
    const qty = event.partsOf4 === 4 ? tp.qty! : tp.qty!.times(event.partsOf4).div(4);
    const result = applySellFill(world.state, {
      lotSeq: tp.lotSeq,
      price: tp.price!,
      qty,
      proceeds: quoteFeeSellProceeds(qty, tp.price!, FEE),
      at,
    });
    world.state = result.state;
    world.closed.push(result.closed);
  }
};

const checkInvariants = (world: World, settings: GridSettings) => {
  const { state, closed, flags } = world;
  const orders = plan(state, settings, flags);
  // Never more than N open lots.
  expect(state.lots.length).toBeLessThanOrEqual(settings.maxTrades);
  // Dry (or paused) never buys.
  if (flags.dry || !flags.running) expect(orders.filter((o) => o.side === 'buy')).toEqual([]);
  // Every open lot has exactly one take profit, for its whole remaining qty.
  if (flags.running) {
    const tps = orders.filter((o) => o.role === 'take_profit');
    expect(tps.map((o) => o.lotSeq).sort((a, b) => a - b)).toEqual(state.lots.map((lot) => lot.seq));
    for (const lot of state.lots) expect(tps.find((o) => o.lotSeq === lot.seq)!.qty!.eq(lot.qty)).toBe(true);
  }
  expect(new Set(orders.map((o) => o.key)).size).toBe(orders.length);
  // Realized PnL is the sum over closed lots.
  const stats = coinStats(state, closed, d(1));
  const sum = closed.reduce((acc, lot) => acc.plus(lot.proceeds).minus(lot.cost), d(0));
  expect(stats.realizedPnl.minus(sum).abs().lte(d('1e-15'))).toBe(true);
  // Quantities and costs never negative (nor zero for anything open or sold).
  for (const lot of state.lots) expect(lot.qty.gt(0) && lot.cost.gt(0)).toBe(true);
  for (const lot of closed) expect(lot.qty.gt(0) && lot.cost.gte(0)).toBe(true);
  // Open lots stay in descending price order, seqs ascending and below nextSeq.
  state.lots.forEach((lot, i) => {
    const previous = state.lots[i - 1];
    if (previous) expect(previous.price.gt(lot.price) && previous.seq < lot.seq).toBe(true);
    expect(lot.seq).toBeLessThan(state.nextSeq);
  });
};

describe('grid invariants under any sequence of fills, dry and pause', () => {
  it('holds them after every event', () => {
    fc.assert(
      fc.property(settingsArb, fc.array(eventArb, { maxLength: 60 }), (settings, events) => {
        const world: World = {
          state: emptyGridState(),
          closed: [],
          flags: { running: true, dry: false },
          lastBuy: null,
          clock: T0,
        };
        for (const event of events) {
          step(world, settings, event);
          checkInvariants(world, settings);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('averaging buy prices strictly decrease with k and follow B = p_last × (1 − (s + (k − 1) × d) / 100)', () => {
    fc.assert(
      fc.property(
        settingsArb,
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 8 }),
        (settings, units, scale) => {
          let state = applyBuyFill(emptyGridState(), {
            seq: 1,
            price: d(units).div(d(10).pow(scale)),
            qty: d(1),
            cost: d(1),
            at: new Date(T0),
          });
          let previousBuy: ReturnType<typeof d> | null = null;
          for (let k = 1; k < settings.maxTrades; k++) {
            const buy = plan(state, settings, { running: true, dry: false }).find((o) => o.side === 'buy')!;
            const pLast = state.lots[k - 1]!.price;
            const dropPct = settings.stepPct.plus(settings.stepIncreasePct.times(k - 1));
            // Exact: the ladder is a product of finite decimals, never rounded (deep levels have > 20 digits).
            expect(buy.price!.eq(new Wide(pLast).times(new Wide(100).minus(dropPct).div(100)))).toBe(true);
            expect(buy.price!.lt(pLast) && buy.price!.gt(0)).toBe(true);
            if (previousBuy) expect(buy.price!.lt(previousBuy)).toBe(true);
            previousBuy = buy.price!;
            state = applyBuyFill(state, {
              seq: buy.lotSeq,
              price: buy.price!,
              qty: d(1),
              cost: d(1),
              at: new Date(T0),
            });
          }
          expect(plan(state, settings, { running: true, dry: false }).some((o) => o.side === 'buy')).toBe(
            false,
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
