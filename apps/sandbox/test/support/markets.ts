import type { PriceFeedSpec, SandboxMarketConfig } from '../../src/exchange/index';

/** BTC/USDT at a fixed 60,000 with Binance's filters: the market most sandbox tests trade on. */
export const FIXED_BTC_USDT: SandboxMarketConfig = {
  base: 'BTC',
  quote: 'USDT',
  tickSize: '0.01',
  stepSize: '0.00001',
  minNotional: '5',
  feed: { kind: 'fixed', price: '60000' },
};

/** ETH/USDT with Binance's filters, prices from `feed`. */
export const ethUsdt = (feed: PriceFeedSpec): SandboxMarketConfig => ({
  base: 'ETH',
  quote: 'USDT',
  tickSize: '0.01',
  stepSize: '0.0001',
  minNotional: '5',
  feed,
});
