import { describe, expect, it } from 'vitest';
import {
  deepBuyBreach,
  exceedsOpenOrderLimit,
  isOrderableLot,
  isOrderableQty,
  type OrderMinimums,
} from '../src/grid/exchange-filters';
import { sellFromLot } from '../src/grid/lot-sale';
import { d, settingsOf, T0 } from './support/build';

/** XRPUSDT-like: quantity step 0.01, minQty 0.01, minNotional 5 USDT. */
const XRP: OrderMinimums = { stepSize: d('0.01'), minQty: d('0.01'), minNotional: d('5') };

describe('a quantity the exchange accepts as a limit order (filters.md LOT_SIZE, NOTIONAL)', () => {
  it.each([
    ['0.19 at 1.01: 0.19 USDT, below the 5 USDT minimum', '0.19', '1.01', false],
    ['4.95 at 1.01: 4.9995 USDT, just below', '4.95', '1.01', false],
    ['4.96 at 1.01: 5.0096 USDT', '4.96', '1.01', true],
    ['4.969 truncates to 4.96 on the step', '4.969', '1.01', true],
    ['0.009 is no step at all', '0.009', '1000', false],
  ])('%s', (_label, qty, price, orderable) => {
    expect(isOrderableQty(d(qty), d(price), XRP)).toBe(orderable);
  });

  it('minQty counts on its own', () => {
    expect(isOrderableQty(d('0.5'), d('100'), { ...XRP, minQty: d('1') })).toBe(false);
  });

  it('a lot is judged at its take profit price, not at its buy price', () => {
    // 4.96 × 1 = 4.96 < 5, but its take profit at +1 % is 5.0096.
    expect(isOrderableLot(d('4.96'), d('1'), settingsOf('10', '1', '0', 3), XRP)).toBe(true);
    expect(isOrderableLot(d('4.96'), d('1'), settingsOf('10', '0.5', '0', 3), XRP)).toBe(false);
  });
});

describe('the remainder of a take profit cancelled after a partial fill (docs/grid.md#remainders)', () => {
  it('closes the lot and hands the rest, with its exact cost share, to the carry', () => {
    // The case: 9.99 XRP bought for 10 USDT, 9.8 sold at 1.01, the rest 0.19 cannot be sold.
    const lot = {
      seq: 1,
      price: d('1'),
      qty: d('9.99'),
      cost: d('10'),
      openedAt: new Date(T0),
      realizedPnl: d(0),
    };
    const settings = settingsOf('10', '1', '0.1', 1);
    const rest = lot.qty.minus('9.8');
    const finishesLot = !isOrderableLot(rest, lot.price, settings, XRP);
    expect(finishesLot).toBe(true);
    const sale = sellFromLot(
      lot,
      { lotSeq: 1, price: d('1.01'), qty: d('9.8'), proceeds: d('9.888102'), at: new Date(T0 + 1) },
      { finishesLot },
    );
    expect(sale.lot).toBeNull();
    expect(sale.sold.lotClosed).toBe(true);
    expect(sale.left.qty.toFixed()).toBe('0.19');
    // Nothing lost or made up: the part's cost and the carried cost are the lot's cost.
    expect(sale.sold.cost.plus(sale.left.cost).toFixed()).toBe('10');
    expect(sale.left.cost.toFixed()).toBe('0.19019019019019019');
  });
});

describe('the purchase limit against MAX_NUM_ORDERS (filters.md#max_num_orders)', () => {
  it.each([
    [200, 200, false],
    [201, 200, true],
    [250, 200, true],
    [300, null, false],
  ])('N = %i with maxNumOrders %s → exceeds: %s', (maxTrades, limit, exceeds) => {
    expect(exceedsOpenOrderLimit(maxTrades, limit)).toBe(exceeds);
  });
});

describe('the deepest buy against PERCENT_PRICE_BY_SIDE (filters.md#percent_price_by_side)', () => {
  const binance = { bidMultiplierDown: d('0.2') };

  it('step 10 % + increase 10 % + 10 trades: lot 9 drops 80 % (accepted), lot 10 drops 90 % (refused)', () => {
    const breach = deepBuyBreach(settingsOf('10', '10', '10', 10), binance);
    expect(breach).not.toBeNull();
    expect(breach!.lotNumber).toBe(10);
    expect(breach!.stepPct.toFixed()).toBe('90');
    expect(breach!.maxStepPct.toFixed()).toBe('80');
  });

  it.each([
    ['exactly at the limit passes (price = average × 0.2)', settingsOf('10', '10', '10', 9)],
    ['the defaults', settingsOf('10', '1', '0.1', 10)],
    ['one lot: no averaging buy at all', settingsOf('10', '10', '10', 1)],
    ['300 lots of 0.5 % + 0.2 %', settingsOf('10', '0.5', '0.2', 300)],
  ])('%s', (_label, settings) => {
    expect(deepBuyBreach(settings, binance)).toBeNull();
  });

  it('a narrower band refuses earlier levels', () => {
    expect(deepBuyBreach(settingsOf('10', '2', '1', 10), { bidMultiplierDown: d('0.95') })?.lotNumber).toBe(
      6,
    );
  });
});
