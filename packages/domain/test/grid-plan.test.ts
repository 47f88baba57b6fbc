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

describe('plan: the user sells lots now (docs/grid.md#deal-controls)', () => {
  const settings = settingsOf('100', '1', '0.1', 5);
  const state = stateWithLots(['100', '99', '97.911']);
  const keys = (orders: DesiredOrder[]) => orders.map((o) => `${o.key} ${o.type} ${text(o.qty)}`);

  it('replaces the lot’s take profit by a market sell of its whole quantity and holds the buy', () => {
    const orders = plan(state, settings, { running: true, dry: false }, { sellNow: [2] });
    expect(keys(orders)).toEqual([
      `tp:3 limit ${text(state.lots[2]!.qty)}`,
      `sell:2 market ${text(state.lots[1]!.qty)}`,
      `tp:1 limit ${text(state.lots[0]!.qty)}`,
    ]);
    expect(orders.find((o) => o.key === 'sell:2')).toMatchObject({
      role: 'market_sell',
      side: 'sell',
      price: null,
      quoteAmount: null,
      lotSeq: 2,
    });
  });

  it('sells in every mode: dry keeps the other take profits, paused places nothing else', () => {
    expect(
      keys(plan(state, settings, { running: true, dry: true }, { sellNow: [1, 3] })).map(
        (k) => k.split(' ')[0],
      ),
    ).toEqual(['sell:3', 'tp:2', 'sell:1']);
    expect(
      plan(state, settings, { running: false, dry: false }, { sellNow: [3, 1] }).map((o) => o.key),
    ).toEqual(['sell:3', 'sell:1']);
    expect(plan(state, settings, { running: false, dry: false }, {})).toEqual([]);
  });

  it('ignores a lot that is not open, and plans as before without commands', () => {
    const plain = plan(state, settings, { running: true, dry: false });
    expect(plan(state, settings, { running: true, dry: false }, { sellNow: [9] })).toEqual(plain);
    expect(plain[0]?.key).toBe('buy:4');
  });
});
