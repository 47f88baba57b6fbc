import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createGridHarness, type Harness } from './support/grid-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** Prices of every buy order the exchange ever received for the coin bot, in the order sent. */
const buysSent = (harness: Harness) =>
  harness.sandbox.control
    .orders(harness.keys.apiKey, 'XRP/USDT')
    .filter((order) => order.side === 'BUY' && order.type === 'LIMIT')
    .map((order) => new Decimal(order.price).toFixed(4));

describe('every order comes from the plan after the last fill the pass applied', () => {
  it('a take profit that fills the moment it is placed: the next buy is planned from the lots that are left', async () => {
    h = await createGridHarness();
    await h.reconcile();
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);

    // The averaging buy fills, and the price is back at 1.0 before the worker looks: lot 2 opens at
    // 0.99 and its take profit (0.9999) fills on arrival, closing lot 2 in the same pass.
    h.setPrice('0.99');
    h.setPrice('1.0');
    await h.reconcile();

    const closed = await h.closedLots();
    expect(closed.map((lot) => lot.seq)).toEqual([2]);
    // The buy that lot 2 would have wanted (0.99 × (1 − 1.1 %) = 0.9791) was never sent: the only
    // buys ever sent rest 1 % under lot 1, the newest open lot.
    expect(buysSent(h)).toEqual(['0.9900', '0.9900']);
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
  });
});
