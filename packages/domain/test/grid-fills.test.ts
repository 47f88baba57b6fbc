import { describe, expect, it } from 'vitest';
import type { GridError } from '../src/grid/errors';
import { applyBuyFill, applySellFill } from '../src/grid/fills';
import { lotTotals } from '../src/grid/formulas';
import { emptyGridState } from '../src/grid/plan';
import { d, stateWithLots, T0, text } from './support/build';

const at = new Date(T0 + 3_600_000);
const code = (c: string) => expect.objectContaining({ code: c }) as GridError;

describe('applyBuyFill', () => {
  it('appends the lot as the newest and advances nextSeq', () => {
    const state = applyBuyFill(stateWithLots(['100']), {
      seq: 2,
      price: d(99),
      qty: d('1.0101'),
      cost: d('100.1'),
      at,
    });
    expect(state.nextSeq).toBe(3);
    expect(state.lots.map((lot) => [lot.seq, text(lot.price), text(lot.qty), text(lot.cost)])).toEqual([
      [1, '100', '1', '100'],
      [2, '99', '1.0101', '100.1'],
    ]);
    expect(state.lots[1]!.openedAt).toEqual(at);
  });

  it('leaves the input state untouched (pure)', () => {
    const before = stateWithLots(['100']);
    applyBuyFill(before, { seq: 2, price: d(99), qty: d(1), cost: d(99), at });
    expect(before.lots).toHaveLength(1);
    expect(before.nextSeq).toBe(2);
  });

  it.each([
    ['the same fill twice (seq already open)', 1, 'LOT_ALREADY_OPEN'],
    ['a seq from the future', 3, 'LOT_SEQ_MISMATCH'],
    ['a seq of a sold lot', 0, 'LOT_SEQ_MISMATCH'],
  ])('refuses %s', (_, seq, expected) => {
    expect(() =>
      applyBuyFill(stateWithLots(['100']), { seq, price: d(99), qty: d(1), cost: d(99), at }),
    ).toThrowError(code(expected));
  });

  it('cannot apply one fill twice', () => {
    const fill = { seq: 1, price: d(10), qty: d(1), cost: d(10), at };
    const once = applyBuyFill(emptyGridState(), fill);
    expect(() => applyBuyFill(once, fill)).toThrowError(code('LOT_ALREADY_OPEN'));
  });

  it.each([
    ['a zero price', { price: d(0), qty: d(1), cost: d(1) }],
    ['a negative qty', { price: d(1), qty: d(-1), cost: d(1) }],
    ['a zero cost', { price: d(1), qty: d(1), cost: d(0) }],
    ['a NaN price', { price: d(Number.NaN), qty: d(1), cost: d(1) }],
  ])('refuses %s (INVALID_FILL)', (_, values) => {
    expect(() => applyBuyFill(emptyGridState(), { seq: 1, at, ...values })).toThrowError(
      code('INVALID_FILL'),
    );
  });
});

describe('applySellFill', () => {
  it('closes a whole lot with pnl = proceeds − cost and removes it', () => {
    const { state, closed } = applySellFill(stateWithLots(['100', '99']), {
      lotSeq: 2,
      price: d('99.99'),
      qty: d(100).div(99),
      proceeds: d('100.9'),
      at,
    });
    expect(state.lots.map((lot) => lot.seq)).toEqual([1]);
    expect(state.nextSeq).toBe(3);
    expect([text(closed.buyPrice), text(closed.sellPrice), text(closed.cost), text(closed.pnl)]).toEqual([
      '99',
      '99.99',
      '100',
      '0.9',
    ]);
    expect(closed.seq).toBe(2);
    expect(closed.closedAt).toEqual(at);
    expect(closed.openedAt).toEqual(new Date(T0 + 60_000));
  });

  it('may sell an older lot than the newest (take profits of edited settings can cross in any order)', () => {
    const { state } = applySellFill(stateWithLots(['100', '99']), {
      lotSeq: 1,
      price: d(101),
      qty: d(1),
      proceeds: d(101),
      at,
    });
    expect(state.lots.map((lot) => lot.seq)).toEqual([2]);
  });

  it('splits a partial sell: the sold part takes its pro-rata cost, the rest stays open', () => {
    const start = stateWithLots(['50'], '100'); // qty 2, cost 100
    const first = applySellFill(start, {
      lotSeq: 1,
      price: d('50.5'),
      qty: d('0.5'),
      proceeds: d('25.25'),
      at,
    });
    expect(text(first.closed.cost)).toBe('25');
    expect(text(first.closed.pnl)).toBe('0.25');
    expect(first.state.lots.map((lot) => [lot.seq, text(lot.qty), text(lot.cost), text(lot.price)])).toEqual([
      [1, '1.5', '75', '50'],
    ]);
    const rest = applySellFill(first.state, {
      lotSeq: 1,
      price: d('50.5'),
      qty: d('1.5'),
      proceeds: d('75.75'),
      at,
    });
    expect(rest.state.lots).toEqual([]);
    expect(text(rest.closed.cost)).toBe('75');
    // Σ cost over both parts is exactly the lot's cost.
    expect(text(first.closed.cost.plus(rest.closed.cost))).toBe('100');
  });

  it('conserves Σ cost across awkward partial fractions', () => {
    let state = stateWithLots(['3'], '10'); // qty 3.333…, cost 10
    let closedCost = d(0);
    for (const part of ['1', '0.7', '1.1']) {
      const r = applySellFill(state, {
        lotSeq: 1,
        price: d('3.03'),
        qty: d(part),
        proceeds: d(part).times('3.03'),
        at,
      });
      closedCost = closedCost.plus(r.closed.cost);
      state = r.state;
    }
    expect(closedCost.plus(lotTotals(state.lots).cost).toFixed()).toBe('10');
    expect(state.lots[0]!.qty.gt(0)).toBe(true);
  });

  it.each([
    ['an unknown lot', { lotSeq: 9, qty: d(1) }, 'LOT_NOT_FOUND'],
    ['more than the lot holds', { lotSeq: 1, qty: d('1.0000001') }, 'SELL_EXCEEDS_LOT'],
    ['a zero qty', { lotSeq: 1, qty: d(0) }, 'INVALID_FILL'],
  ])('refuses %s', (_, fill, expected) => {
    expect(() =>
      applySellFill(stateWithLots(['100']), { price: d(101), proceeds: d(101), at, ...fill }),
    ).toThrowError(code(expected));
  });

  it('cannot apply a whole sell twice', () => {
    const fill = { lotSeq: 1, price: d(101), qty: d(1), proceeds: d(101), at };
    const { state } = applySellFill(stateWithLots(['100']), fill);
    expect(() => applySellFill(state, fill)).toThrowError(code('LOT_NOT_FOUND'));
  });
});
