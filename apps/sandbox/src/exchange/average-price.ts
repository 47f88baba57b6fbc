import type { Decimal } from 'decimal.js';
import { Dec } from './money';

const MINUTE = 60_000;
/** Binance's PERCENT_PRICE_BY_SIDE and avgPrice look back at most a few minutes; keep ten. */
const KEEP_MS = 10 * MINUTE;

/**
 * A market's recent prices, one per price step, for Binance's "average price over the last
 * avgPriceMins minutes" (filters.md#percent_price_by_side, GET /api/v3/avgPrice). Binance weighs
 * each trade by its volume; a replayed feed has no volume per step, so every step weighs the same.
 */
export class AveragePrice {
  private readonly steps: { time: number; price: Decimal }[] = [];

  record(price: Decimal, now = Date.now()): void {
    this.steps.push({ time: now, price });
    let drop = 0;
    while (drop < this.steps.length - 1 && this.steps[drop]!.time < now - KEEP_MS) drop++;
    if (drop > 0) this.steps.splice(0, drop);
  }

  /** The mean price of the last `mins` minutes; the last price when `mins` is 0 or nothing is that recent. */
  over(mins: number, lastPrice: Decimal, now = Date.now()): Decimal {
    if (mins <= 0) return lastPrice;
    const since = now - mins * MINUTE;
    const recent = this.steps.filter((s) => s.time >= since);
    if (recent.length === 0) return lastPrice;
    return recent.reduce((sum, s) => sum.add(s.price), new Dec(0)).div(recent.length);
  }
}
