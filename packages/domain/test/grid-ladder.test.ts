import Decimal from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { ladderPreview, type OrderRounding } from '../src/grid/ladder';
import { plan } from '../src/grid/plan';
import { d, settingsOf, stateWithLots, text } from './support/build';

const settings = settingsOf('100', '1', '0.1', 4);
const running = { running: true, dry: false };
const fee = { feePct: d('0.1') };

const buyRows = (preview: ReturnType<typeof ladderPreview>) =>
  preview.buys.map((b) => [
    b.lotSeq,
    b.lotNumber,
    text(b.price),
    text(b.stepPct),
    text(b.cumulativeCost),
    b.resting,
  ]);

describe('ladderPreview', () => {
  it('lists every buy level down to the purchase limit with the capital each would tie up', () => {
    // One lot of 100 USDT at 100. Next levels: 100 × 0.99, × 0.989, × 0.988; each buy costs 100 × 1.001.
    const preview = ladderPreview(stateWithLots(['100']), settings, running, d('99.5'), fee);
    expect(buyRows(preview)).toEqual([
      [2, 2, '99', '1', '200.1', true],
      [3, 3, '97.911', '1.1', '300.2', false],
      [4, 4, '96.736068', '1.2', '400.3', false],
    ]);
    expect(text(preview.buys[0]!.qty)).toBe(d(100).div(99).toFixed());
    expect(preview.waiting).toBe(false);
    expect(preview.nextEntry).toBeNull();
  });

  it("shows each lot's take profit with its PnL net of both fees, newest (lowest) first", () => {
    const preview = ladderPreview(stateWithLots(['100', '99']), settings, running, d(99), fee);
    expect(preview.takeProfits.map((tp) => [tp.lotSeq, tp.lotNumber, text(tp.price), tp.resting])).toEqual([
      [2, 2, '99.99', true],
      [1, 1, '101', true],
    ]);
    // Lot 1: qty 1 sold at 101 less 0.1 % = 100.899, minus its cost of 100.
    expect(text(preview.takeProfits[1]!.expectedPnl)).toBe('0.899');
  });

  it('with the market rounding, shows each order as it is sent and follows the ladder from the sent prices', () => {
    // Tick 0.01 (to the nearest, half up) and lot step 0.001 (truncated), as ccxt rounds for Binance.
    const tick = d('0.01');
    const step = d('0.001');
    const rounding: OrderRounding = {
      price: (p) => p.div(tick).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).times(tick),
      buyQty: (quote, p) => quote.div(p).div(step).floor().times(step),
      sellQty: (q) => q.div(step).floor().times(step),
    };
    const lots = stateWithLots(['100.37']);
    const preview = ladderPreview(lots, settings, running, d(100), { ...fee, rounding });
    // 100.37 × 0.99 = 99.3663 → 99.37; 99.37 × 0.989 = 98.27693 → 98.28 (not 99.3663 × 0.989 → 98.27);
    // 98.28 × 0.988 = 97.10064 → 97.10.
    expect(preview.buys.map((b) => [text(b.price), text(b.qty)])).toEqual([
      ['99.37', '1.006'],
      ['98.28', '1.017'],
      ['97.1', '1.029'],
    ]);
    // The take profit 100.37 × 1.01 = 101.3737 goes out at 101.37, for the lot's 0.996 whole steps.
    const [tp] = preview.takeProfits;
    expect([text(tp!.price), text(tp!.qty)]).toEqual(['101.37', '0.996']);
    const lot = lots.lots[0]!;
    const share = lot.cost.times(tp!.qty).div(lot.qty);
    expect(tp!.expectedPnl.toFixed(12)).toBe(
      d('0.996').times('101.37').times('0.999').minus(share).toFixed(12),
    );
  });

  it('agrees with the planner on the resting buy and take profits', () => {
    const state = stateWithLots(['100', '99', '97.911']);
    const preview = ladderPreview(state, settings, running, d(98), fee);
    const orders = plan(state, settings, running);
    expect(text(preview.buys[0]!.price)).toBe(text(orders[0]!.price));
    expect(preview.takeProfits.map((tp) => text(tp.price))).toEqual(
      orders.slice(1).map((o) => text(o.price)),
    );
  });

  it('at the purchase limit shows waiting and no buy', () => {
    const preview = ladderPreview(
      stateWithLots(['100', '99', '97.911', '96.736068']),
      settings,
      running,
      d(95),
      fee,
    );
    expect(preview.waiting).toBe(true);
    expect(preview.buys).toEqual([]);
    expect(preview.takeProfits).toHaveLength(4);
  });

  it('without lots: an entry is due and the levels hang below an entry at the last price', () => {
    const preview = ladderPreview(stateWithLots([]), settingsOf('100', '1', '0.1', 3), running, d(50), fee);
    expect(text(preview.nextEntry!.orderSize)).toBe('100');
    expect(text(preview.nextEntry!.price)).toBe('50');
    // Entry costs 100.1; then 50 × 0.99 = 49.5 and 49.5 × 0.989 = 48.9555; nothing rests yet.
    expect(buyRows(preview)).toEqual([
      [2, 2, '49.5', '1', '200.2', false],
      [3, 3, '48.9555', '1.1', '300.3', false],
    ]);
  });

  it('without lots and without a price: only the entry', () => {
    const preview = ladderPreview(stateWithLots([]), settings, running, null, fee);
    expect(preview.buys).toEqual([]);
    expect(preview.nextEntry?.price).toBeNull();
  });

  it('dry: take profits only, no entry', () => {
    const preview = ladderPreview(stateWithLots(['100']), settings, { running: true, dry: true }, d(99), fee);
    expect(preview.buys).toEqual([]);
    expect(preview.takeProfits.map((tp) => tp.resting)).toEqual([true]);
    expect(
      ladderPreview(stateWithLots([]), settings, { running: true, dry: true }, d(99), fee).nextEntry,
    ).toBeNull();
  });

  it('paused: the same levels, none resting and no entry due', () => {
    const preview = ladderPreview(
      stateWithLots(['100']),
      settings,
      { running: false, dry: false },
      d(99),
      fee,
    );
    expect(preview.buys.map((b) => b.resting)).toEqual([false, false, false]);
    expect(preview.takeProfits.map((tp) => tp.resting)).toEqual([false]);
    expect(
      ladderPreview(stateWithLots([]), settings, { running: false, dry: false }, d(99), fee).nextEntry,
    ).toBeNull();
  });

  it('previews an edit: the new settings re-plan the levels below the same lots', () => {
    const state = stateWithLots(['100', '99']);
    const edited = ladderPreview(state, settingsOf('100', '2', '0', 3), running, d(99), fee);
    // k = 2, new step 2 %, no increase: 99 × 0.98; take profits at +2 %.
    expect(buyRows(edited)).toEqual([[3, 3, '97.02', '2', '300.1', true]]);
    expect(edited.takeProfits.map((tp) => text(tp.price))).toEqual(['100.98', '102']);
  });
});
