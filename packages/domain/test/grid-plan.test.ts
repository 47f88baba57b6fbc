import { describe, expect, it } from 'vitest';
import type { GridError } from '../src/grid/errors';
import { emptyGridState, plan } from '../src/grid/plan';
import type { DesiredOrder, GridState } from '../src/grid/types';
import cases from './fixtures/plan-cases.json';
import { d, settingsOf, stateWithLots, T0, text } from './support/build';

type PlanCase = (typeof cases)[number] & { firstSeq?: number };

const stateOf = (c: PlanCase): GridState => {
  const first = c.firstSeq ?? 1;
  return {
    lots: c.lots.map((lot, i) => ({
      seq: first + i,
      price: d(lot.price),
      qty: d(lot.qty),
      cost: d(c.settings.orderSize),
      openedAt: new Date(T0),
      realizedPnl: d(0),
    })),
    nextSeq: first + c.lots.length,
  };
};

const plain = (order: DesiredOrder) => ({
  ...order,
  price: text(order.price),
  quoteAmount: text(order.quoteAmount),
  qty: text(order.qty),
});

const normalize = (expected: PlanCase['expected']) =>
  expected.map((order) => ({
    ...order,
    price: order.price === null ? null : d(order.price).toFixed(),
    quoteAmount: order.quoteAmount === null ? null : d(order.quoteAmount).toFixed(),
    qty: order.qty === null ? null : d(order.qty).toFixed(),
  }));

describe('plan: docs/grid.md rule by rule', () => {
  it.each(cases as PlanCase[])('$name', (c) => {
    const { orderSize, stepPct, stepIncreasePct, maxTrades } = c.settings;
    const orders = plan(stateOf(c), settingsOf(orderSize, stepPct, stepIncreasePct, maxTrades), c.flags);
    expect(orders.map(plain)).toEqual(normalize(c.expected));
  });

  it('follows the step increase all the way down: -1 %, -1.1 %, -1.2 %, … from each newest lot', () => {
    const settings = settingsOf('10', '1', '0.1', 6);
    let state = stateWithLots(['200'], '10');
    const drops: string[] = [];
    for (let k = 1; k < 6; k++) {
      const buy = plan(state, settings, { running: true, dry: false })[0]!;
      const newest = state.lots[state.lots.length - 1]!.price;
      drops.push(d(1).minus(buy.price!.div(newest)).times(100).toFixed());
      state = stateWithLots([...state.lots.map((lot) => lot.price.toFixed()), buy.price!.toFixed()], '10');
    }
    expect(drops).toEqual(['1', '1.1', '1.2', '1.3', '1.4']);
    expect(plan(state, settings, { running: true, dry: false }).some((o) => o.side === 'buy')).toBe(false);
  });

  it('starts a fresh coin at lot 1', () => {
    expect(plan(emptyGridState(), settingsOf('10', '1', '0', 3), { running: true, dry: false })[0]?.key).toBe(
      'entry:1',
    );
  });

  it.each([
    ['a zero step', settingsOf('10', '0', '0', 3)],
    ['a zero order size', settingsOf('0', '1', '0', 3)],
    ['a fractional maxTrades', settingsOf('10', '1', '0', 2.5)],
    ['a deepest step of 100 %', settingsOf('10', '50', '50', 3)],
  ])('refuses %s (INVALID_SETTINGS) rather than plan nonsense', (_, settings) => {
    expect(() => plan(stateWithLots(['1']), settings, { running: true, dry: false })).toThrowError(
      expect.objectContaining({ code: 'INVALID_SETTINGS' }) as GridError,
    );
  });
});
