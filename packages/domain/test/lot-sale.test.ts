import Decimal from 'decimal.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  quoteFeeBuy,
  quoteFeeLotProceeds,
  quoteFeeSellProceeds,
  takeProfitPrice,
} from '../src/grid/formulas';
import { costShare, openLot, sellFromLot, tradeCounts } from '../src/grid/lot-sale';
import type { ClosedLot, Lot } from '../src/grid/types';
import { d, settingsOf, T0, text } from './support/build';

const at = (day: number) => new Date(T0 + day * 86_400_000);
/** A lot of `qty` coins that cost `cost` USDT. */
const lotOf = (qty: string, cost: string): Lot =>
  openLot({ seq: 1, price: d(cost).div(qty), qty: d(qty), cost: d(cost), at: at(0) });

/** Sells parts [qty, proceeds] one after the other; returns every sold part and the lot left. */
const sellParts = (lot: Lot, parts: [string, string][], finishesLast = false) => {
  const sold: ClosedLot[] = [];
  let current: Lot | null = lot;
  parts.forEach(([qty, proceeds], i) => {
    if (!current) throw new Error('lot already closed');
    const last = i === parts.length - 1;
    const sale = sellFromLot(
      current,
      { lotSeq: current.seq, price: d(proceeds).div(qty), qty: d(qty), proceeds: d(proceeds), at: at(i + 1) },
      { finishesLot: last && finishesLast },
    );
    sold.push(sale.sold);
    current = sale.lot;
  });
  return { sold, lot: current };
};

describe('the lot model (docs/pnl.md)', () => {
  it.each([
    // label, lot [qty, cost], parts [qty, proceeds], part PnLs, lot PnL, closed, profitable
    ['a whole sale at a profit', ['2', '100'], [['2', '110']], ['10'], '10', true, true],
    ['a whole sale at a loss', ['2', '100'], [['2', '99']], ['-1'], '-1', true, false],
    ['a whole sale breaking even exactly', ['2', '100'], [['2', '100']], ['0'], '0', true, false],
    [
      'a profit part then a smaller loss part',
      ['2', '100'],
      [
        ['1', '60'],
        ['1', '45'],
      ],
      ['10', '-5'],
      '5',
      true,
      true,
    ],
    [
      'a profit part then an equal loss part',
      ['2', '100'],
      [
        ['1', '55'],
        ['1', '45'],
      ],
      ['5', '-5'],
      '0',
      true,
      false,
    ],
    [
      'a loss part then a smaller profit part',
      ['2', '100'],
      [
        ['1', '40'],
        ['1', '55'],
      ],
      ['-10', '5'],
      '-5',
      true,
      false,
    ],
    ['only a part sold so far', ['2', '100'], [['0.5', '30']], ['5'], '5', false, false],
    [
      'three parts with a third of the cost each',
      ['3', '1'],
      [
        ['1', '0.4'],
        ['1', '0.3'],
        ['1', '0.3'],
      ],
      ['0.066666666666666667', '-0.033333333333333334', '-0.033333333333333333'],
      '0',
      true,
      false,
    ],
  ] as const)('%s', (_, [qty, cost], parts, partPnls, lotPnl, closed, profitable) => {
    const { sold, lot } = sellParts(
      lotOf(qty, cost),
      parts.map((p) => [p[0], p[1]]),
    );
    expect(sold.map((s) => text(s.pnl))).toEqual(partPnls);
    const last = sold.at(-1)!;
    expect(text(last.lotPnl)).toBe(lotPnl);
    expect([last.lotClosed, last.profitable]).toEqual([closed, profitable]);
    expect(lot === null).toBe(closed);
    // Only the last part can count a trade; earlier parts never do.
    expect(sold.slice(0, -1).map(tradeCounts)).toEqual(
      sold.slice(0, -1).map(() => ({ closedTrades: 0, profitableTrades: 0 })),
    );
    expect(tradeCounts(last)).toEqual({ closedTrades: closed ? 1 : 0, profitableTrades: profitable ? 1 : 0 });
  });

  it('closes a lot whose take profit finished with less than a step unsold, leaving the rest to carry', () => {
    const { sold, lot } = sellParts(lotOf('2', '100'), [['1.99', '109.45']], true);
    const sale = sellFromLot(
      lotOf('2', '100'),
      {
        lotSeq: 1,
        price: d(55),
        qty: d('1.99'),
        proceeds: d('109.45'),
        at: at(1),
      },
      { finishesLot: true },
    );
    expect(lot).toBeNull();
    expect([text(sale.left.qty), text(sale.left.cost)]).toEqual(['0.01', '0.5']);
    expect([text(sold[0]!.cost), text(sold[0]!.pnl), sold[0]!.profitable]).toEqual(['99.5', '9.95', true]);
  });

  it('refuses a sale larger than the lot, of another lot, or without a positive quantity', () => {
    const lot = lotOf('2', '100');
    const fill = { lotSeq: 1, price: d(1), qty: d(3), proceeds: d(3), at: at(1) };
    expect(() => sellFromLot(lot, fill)).toThrow(/exceeds/);
    expect(() => sellFromLot(lot, { ...fill, qty: d(1), lotSeq: 2 })).toThrow(/lot 2/);
    expect(() => sellFromLot(lot, { ...fill, qty: d(0) })).toThrow(/positive/);
  });

  it('rounds a partial cost share to 18 decimals and keeps Σ shares equal to the cost', () => {
    expect(text(costShare(lotOf('3', '1'), d(1)))).toBe('0.333333333333333333');
    expect(text(costShare(lotOf('3', '1'), d(3)))).toBe('1');
  });
});

const decimalArb = (min: number, max: number, scale: number) =>
  fc.integer({ min: min * 10 ** scale, max: max * 10 ** scale }).map((n) => new Decimal(n).div(10 ** scale));

describe('lot model properties', () => {
  it('sums: Σ part PnL = Σ proceeds − cost exactly, one trade per lot, profitable iff that sum > 0', () => {
    fc.assert(
      fc.property(
        decimalArb(1, 1000, 8),
        decimalArb(1, 100_000, 6),
        fc.array(fc.tuple(fc.integer({ min: 1, max: 1000 }), decimalArb(0, 2, 6)), {
          minLength: 1,
          maxLength: 6,
        }),
        (qty, cost, parts) => {
          // Parts: weights of the quantity, sold at price factor × cost/qty.
          const total = parts.reduce((s, [w]) => s + w, 0);
          let lot: Lot | null = openLot({ seq: 1, price: cost.div(qty), qty, cost, at: at(0) });
          let remaining = qty;
          let proceedsSum = new Decimal(0);
          const sold: ClosedLot[] = [];
          parts.forEach(([weight, factor], i) => {
            const last = i === parts.length - 1;
            const q = last ? remaining : qty.times(weight).div(total).toDecimalPlaces(8, Decimal.ROUND_DOWN);
            if (q.lte(0) || !lot) return;
            const proceeds = q.times(cost.div(qty)).times(factor).toDecimalPlaces(8);
            const sale = sellFromLot(lot, { lotSeq: 1, price: d(1), qty: q, proceeds, at: at(i + 1) });
            sold.push(sale.sold);
            proceedsSum = proceedsSum.plus(proceeds);
            remaining = remaining.minus(q);
            lot = sale.lot;
          });
          const wide = Decimal.clone({ precision: 200 });
          const exactSum = sold.reduce((s, p) => s.plus(p.pnl), new wide(0));
          expect(exactSum.eq(new wide(proceedsSum).minus(cost))).toBe(true);
          expect(sold.filter((s) => s.lotClosed)).toHaveLength(1);
          expect(sold.at(-1)!.lotClosed).toBe(true);
          expect(sold.at(-1)!.profitable).toBe(exactSum.gt(0));
          expect(sold.at(-1)!.lotPnl.eq(exactSum)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('quote fees: a whole lot sold at its take profit has PnL S × [(1 + s)(1 − f) − (1 + f)] exactly, at any price', () => {
    fc.assert(
      fc.property(
        decimalArb(6, 100_000, 2),
        fc.constantFrom('0.5', '1', '1.5', '2.25', '10', '50'),
        fc.constantFrom('0', '0.075', '0.1', '1', '20'),
        decimalArb(0, 100_000, 10).filter((p) => p.gt(0)),
        (orderSize, step, fee, price) => {
          const settings = settingsOf(orderSize.toFixed(), step, '0', 3);
          const f = d(fee);
          const { qty, cost } = quoteFeeBuy(orderSize, price, f);
          const tp = takeProfitPrice(price, settings);
          const proceeds = quoteFeeLotProceeds(orderSize, price, tp, f);
          const sale = sellFromLot(openLot({ seq: 1, price, qty, cost, at: at(0) }), {
            lotSeq: 1,
            price: tp,
            qty,
            proceeds,
            at: at(1),
          });
          const one = d(1);
          const expected = orderSize.times(
            one
              .plus(d(step).div(100))
              .times(one.minus(f.div(100)))
              .minus(one.plus(f.div(100))),
          );
          expect(sale.sold.pnl.eq(expected)).toBe(true);
          expect(sale.sold.profitable).toBe(expected.gt(0));
          // Within 1e-12 of the proceeds from the rounded quantity (docs/grid.md).
          const viaQty = quoteFeeSellProceeds(qty, tp, f);
          expect(viaQty.minus(proceeds).abs().lte(proceeds.abs().times('1e-12'))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
