import { describe, expect, it } from 'vitest';
import { saleEstimate } from '../src/grid/sale-estimate';
import { d, T0 } from './support/build';

const lot = (qty: string, cost: string, realizedPnl = '0') => ({
  seq: 3,
  price: d('0.5'),
  qty: d(qty),
  cost: d(cost),
  openedAt: new Date(T0),
  realizedPnl: d(realizedPnl),
});

describe('saleEstimate (docs/grid.md#deal-controls)', () => {
  it('sells the whole lot at the price, less the exchange fee, against its whole cost', () => {
    // 20 XRP bought for 10.01 USDT; sold at 0.52 with 0.1 %: 10.4 − 0.0104 = 10.3896.
    const sale = saleEstimate(lot('20', '10.01'), d('20'), d('0.52'), d('0.1'));
    expect([sale.proceeds.toFixed(), sale.cost.toFixed(), sale.pnl.toFixed()]).toEqual([
      '10.3896',
      '10.01',
      '0.3796',
    ]);
  });

  it('closes the cost share of the quantity on the lot step, and counts the parts sold before', () => {
    // 19.9 of 19.97 XRP on a 0.1 step: cost 10 × 19.9 / 19.97; the deal had +0.2 from a partial take profit.
    const sale = saleEstimate(lot('19.97', '10', '0.2'), d('19.9'), d('0.49'), d('0.1'));
    expect(sale.cost.toFixed()).toBe('9.964947421131697546');
    expect(sale.proceeds.toFixed()).toBe('9.741249');
    expect(sale.pnl.toFixed()).toBe(d('9.741249').minus('9.964947421131697546').plus('0.2').toFixed());
  });
});
