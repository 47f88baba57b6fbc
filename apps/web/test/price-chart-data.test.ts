import { describe, expect, it } from 'vitest';
import { markersOnCandles, precisionOf } from '../src/screens/shared/price-chart-data';

const candle = (time: string, close: string) => ({ time, open: close, high: close, low: close, close });
const COLORS = { buy: 'purple', sell: 'green' };

describe('price chart data', () => {
  it("shows the candles' decimals, but not more than the price's size needs", () => {
    expect(precisionOf([candle('2025-03-14T09:00:00Z', '0.5821')])).toBe(4);
    expect(precisionOf([candle('2025-03-14T09:00:00Z', '3000.59000000')])).toBe(2);
    expect(precisionOf([candle('2025-03-14T09:00:00Z', '65420.5')])).toBe(2);
    expect(precisionOf([candle('2025-03-14T09:00:00Z', '0.00001234')])).toBe(8);
    expect(precisionOf([])).toBe(2);
  });

  it("shows the market's tick when it is known: a line's label is the ladder's price", () => {
    expect(precisionOf([candle('2025-03-14T09:00:00Z', '65420.5')], '0.01')).toBe(2);
    expect(precisionOf([candle('2025-03-14T09:00:00Z', '3000.59000000')], '0.00100000')).toBe(3);
    expect(precisionOf([candle('2025-03-14T09:00:00Z', '0.5821')], '0.5')).toBe(1);
    expect(precisionOf([candle('2025-03-14T09:00:00Z', '0.5821')], null)).toBe(4);
  });

  it('puts each fill on the candle it happened in, one marker per candle and side, in time order', () => {
    const candles = [
      candle('2025-03-14T09:00:00Z', '1'),
      candle('2025-03-14T09:05:00Z', '1'),
      candle('2025-03-14T09:10:00Z', '1'),
    ];
    const markers = markersOnCandles(
      candles,
      [
        { time: '2025-03-14T08:59:59Z', side: 'buy', price: '1' }, // before the first candle: left out
        { time: '2025-03-14T09:06:00Z', side: 'sell', price: '1.01' },
        { time: '2025-03-14T09:01:00Z', side: 'buy', price: '1' },
        { time: '2025-03-14T09:04:59Z', side: 'buy', price: '0.99' }, // same candle, same side: one marker
        { time: '2025-03-14T09:20:00Z', side: 'buy', price: '0.98' }, // after the last open: the last candle
        { time: '2025-03-14T09:06:30Z', side: 'buy', price: '1' },
      ],
      COLORS,
    );
    const at = (iso: string) => Date.parse(iso) / 1000;
    expect(markers).toEqual([
      { time: at('2025-03-14T09:00:00Z'), position: 'belowBar', shape: 'arrowUp', color: 'purple', size: 1 },
      { time: at('2025-03-14T09:05:00Z'), position: 'belowBar', shape: 'arrowUp', color: 'purple', size: 1 },
      { time: at('2025-03-14T09:05:00Z'), position: 'aboveBar', shape: 'arrowDown', color: 'green', size: 1 },
      { time: at('2025-03-14T09:10:00Z'), position: 'belowBar', shape: 'arrowUp', color: 'purple', size: 1 },
    ]);
  });

  it('draws markers smaller when there are many', () => {
    const candles = Array.from({ length: 100 }, (_, i) => candle(new Date(i * 60_000).toISOString(), '1'));
    const fills = candles.map((c) => ({ time: c.time, side: 'buy' as const, price: '1' }));
    const markers = markersOnCandles(candles, fills, COLORS);
    expect(markers).toHaveLength(100);
    expect(markers.every((m) => m.size === 0.6)).toBe(true);
  });
});
