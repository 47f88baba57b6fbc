import { scanVenuePrices } from '@gridbot/services';
import { createTestContext } from '@gridbot/services/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createGridHarness, type Harness } from './support/grid-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const venue = 'binance:sandbox';
const symbols = ['XRP/USDT'];

/** Entry at 1.0, then the resting averaging buy at 0.99 and take profit at 1.01; one scan sets the marks. */
const restingLadder = async (harness: Harness) => {
  await harness.reconcile();
  expect(await harness.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
  expect(await scanVenuePrices(harness.contextFor(), { venue, symbols })).toEqual({ crossed: [] });
};

describe('the price scan reads the range traded since the last scan (docs/grid.md#triggers)', () => {
  it('finds a dip through a resting buy and back between two scans, and the reconcile records the fill', async () => {
    h = await createGridHarness();
    await restingLadder(h);
    // The dip fills the buy on the exchange; by the next scan the price is back where it was.
    expect(h.setPrice('0.985')).toHaveLength(1);
    h.setPrice('1');

    expect(await scanVenuePrices(h.contextFor(), { venue, symbols })).toEqual({ crossed: [h.bot.id] });
    const mark = await h.prisma.priceMark.findUniqueOrThrow({
      where: { venue_symbol: { venue, symbol: 'XRP/USDT' } },
    });
    expect(mark.price.toString()).toBe('1');
    expect(mark.scannedAt).not.toBeNull();

    // The buy at 0.99 becomes lot 2 (its take profit at 0.9999 may fill at once: the price is 1).
    expect((await h.reconcile()).filled).toBeGreaterThanOrEqual(1);
    const lots = await h.prisma.lot.findMany({ where: { coinBotId: h.bot.id }, orderBy: { seq: 'asc' } });
    expect(lots.map((l) => l.buyPrice.toString())).toEqual(['1', '0.99']);

    // Fill latency (docs/grid.md#fill-latency): every fill knows when it was recorded and when the
    // coin bot's next orders were placed, in that order after the trade.
    const fills = await h.prisma.fill.findMany({ where: { coinBotId: h.bot.id } });
    expect(fills.length).toBeGreaterThanOrEqual(2);
    for (const fill of fills) {
      expect(fill.recordedAt?.getTime()).toBeGreaterThanOrEqual(fill.at.getTime());
      expect(fill.convergedAt?.getTime()).toBeGreaterThanOrEqual(fill.recordedAt?.getTime() ?? Infinity);
    }
  });

  it('above SCAN_RANGE_MAX_SYMBOLS the venue falls back to the ticker range, which misses the dip', async () => {
    h = await createGridHarness();
    await restingLadder(h);
    h.setPrice('0.985');
    h.setPrice('1');
    const tickerOnly = createTestContext({
      prisma: h.prisma,
      exchanges: h.clients,
      env: { SCAN_RANGE_MAX_SYMBOLS: '0' },
    });
    expect(await scanVenuePrices(tickerOnly, { venue, symbols })).toEqual({ crossed: [] });
  });
});
