import type { PriceFeedSpec, SandboxMarketConfig } from '../../src/exchange/index';

/**
 * BTC/USDT at a fixed 60,000 with Binance's filters: the market most sandbox tests trade on. Its
 * liquidity is infinite, so every order the price crosses fills whole in one trade: these tests
 * check amounts, fees and events of a fill (partial fills: partial-fills.int.test.ts).
 */
export const FIXED_BTC_USDT: SandboxMarketConfig = {
  base: 'BTC',
  quote: 'USDT',
  tickSize: '0.01',
  stepSize: '0.00001',
  minNotional: '5',
  feed: { kind: 'fixed', price: '60000' },
  liquidity: 'infinite',
};

/**
 * XRP/USDT at a fixed 0.5 with a minimum quantity of its own (1 XRP, above the lot step), whole
 * fills: a second market for the dialects' listings and a minimum size beside the minimum value.
 */
export const FIXED_XRP_USDT: SandboxMarketConfig = {
  base: 'XRP',
  quote: 'USDT',
  tickSize: '0.0001',
  stepSize: '0.1',
  minQty: '1',
  minNotional: '5',
  feed: { kind: 'fixed', price: '0.5' },
  liquidity: 'infinite',
};

/** ETH/USDT with Binance's filters, prices from `feed`. */
export const ethUsdt = (feed: PriceFeedSpec): SandboxMarketConfig => ({
  base: 'ETH',
  quote: 'USDT',
  tickSize: '0.01',
  stepSize: '0.0001',
  minNotional: '5',
  feed,
  // Whole fills, as the tests on these markets count one trade per crossed order.
  liquidity: 'infinite',
});

/** ETH/USDT replaying three ETH/BTC-like minutes rescaled to 3,000 USDT: a market with a past. */
export const REPLAYED_ETH_USDT = ethUsdt({
  kind: 'candles',
  firstClose: '3000',
  candles: [
    { time: 0, open: '0.09', high: '0.091', low: '0.089', close: '0.0905', volume: '10' },
    { time: 60_000, open: '0.0905', high: '0.092', low: '0.09', close: '0.0915', volume: '12' },
    { time: 120_000, open: '0.0915', high: '0.0916', low: '0.0895', close: '0.09', volume: '8' },
  ],
});
