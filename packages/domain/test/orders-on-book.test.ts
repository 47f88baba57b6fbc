import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orderOnBookStateOf, planOnBookOf, refusalReasonOf } from '../src/grid/orders-on-book';
import { plan, plannedOrderKeys } from '../src/grid/plan';
import type { GridState } from '../src/grid/types';
import { d, settingsOf, T0 } from './support/build';

describe('orderOnBookStateOf: docs/grid.md#on-the-exchange', () => {
  it.each([
    ['open', 'resting'],
    ['pending', 'placing'],
    ['rejected', 'refused'],
    ['canceled', 'missing'],
    ['filled', 'missing'],
    [null, 'missing'],
  ] as const)('the latest record %s → %s', (status, state) => {
    expect(orderOnBookStateOf(status)).toBe(state);
  });
});

describe('refusalReasonOf', () => {
  it.each([
    [
      'EXCHANGE_INSUFFICIENT_BALANCE',
      'Account has insufficient balance for requested action.',
      'insufficient_balance',
    ],
    ['ORDER_REJECTED', 'Market is closed.', 'market_closed'],
    ['ORDER_BELOW_EXCHANGE_MIN', 'Filter failure: NOTIONAL', 'below_minimum'],
    ['ORDER_BELOW_EXCHANGE_MIN', 'Filter failure: MIN_NOTIONAL', 'below_minimum'],
    ['ORDER_REJECTED', 'Filter failure: PRICE_FILTER', 'price_filter'],
    ['ORDER_REJECTED', 'Filter failure: LOT_SIZE', 'lot_size'],
    ['ORDER_REJECTED', 'Filter failure: PERCENT_PRICE_BY_SIDE', 'price_limit'],
    ['ORDER_REJECTED', 'Filter failure: MAX_NUM_ORDERS', 'too_many_orders'],
    ['EXCHANGE_INSUFFICIENT_BALANCE', null, 'insufficient_balance'],
    ['ORDER_REJECTED', 'Something new.', 'other'],
    [null, null, 'other'],
  ] as const)('%s "%s" → %s', (code, message, reason) => {
    expect(refusalReasonOf({ code, message })).toBe(reason);
  });
});

describe('planOnBookOf', () => {
  it('nothing planned (paused) is none; everything resting is on_book', () => {
    expect(planOnBookOf([]).status).toBe('none');
    expect(
      planOnBookOf([
        { side: 'buy', state: 'resting' },
        { side: 'sell', state: 'resting' },
      ]).status,
    ).toBe('on_book');
  });

  it('an order being placed is placing; one refused or missing is off_book, counted by role', () => {
    expect(planOnBookOf([{ side: 'sell', state: 'placing' }]).status).toBe('placing');
    const plan = planOnBookOf([
      { side: 'buy', state: 'placing' },
      { side: 'sell', state: 'resting' },
      { side: 'sell', state: 'refused' },
      { side: 'sell', state: 'missing' },
    ]);
    expect(plan).toEqual({
      status: 'off_book',
      takeProfits: { planned: 3, resting: 1, placing: 0, refused: 1, missing: 1 },
      buys: { planned: 1, resting: 0, placing: 1, refused: 0, missing: 0 },
    });
  });
});

describe('plannedOrderKeys', () => {
  it('names exactly the orders plan wants, from the lot numbers alone', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 500 }),
        fc.boolean(),
        fc.boolean(),
        (k, maxTrades, firstSeq, running, dry) => {
          const state: GridState = {
            lots: Array.from({ length: k }, (_, i) => ({
              seq: firstSeq + i * 2,
              price: d(100 - i),
              qty: d(1),
              cost: d(10),
              openedAt: new Date(T0),
              realizedPnl: d(0),
            })),
            nextSeq: firstSeq + k * 2,
          };
          const settings = settingsOf('10', '1', '0.1', maxTrades);
          const flags = { running, dry };
          const keys = plannedOrderKeys({
            flags,
            lotSeqs: state.lots.map((l) => l.seq),
            nextSeq: state.nextSeq,
            maxTrades,
          });
          expect(keys).toEqual(
            plan(state, settings, flags).map((o) => ({ key: o.key, side: o.side, lotSeq: o.lotSeq })),
          );
        },
      ),
    );
  });
});
