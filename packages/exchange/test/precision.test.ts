import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { createCcxtExchange } from '../src/ccxt-instance';
import { ExchangeError } from '../src/errors';
import { toMarketInfo } from '../src/normalize';
import { amountForQuote, amountToPrecision, minimumViolation, priceToPrecision } from '../src/precision';

/** Two exchangeInfo entries in Binance's format: a BTC-like market and a coin priced around 5e-05. */
const symbol = (
  id: string,
  base: string,
  tickSize: string,
  stepSize: string,
  minQty: string,
  minNotional: string,
) => ({
  symbol: id,
  status: 'TRADING',
  baseAsset: base,
  baseAssetPrecision: 8,
  quoteAsset: 'USDT',
  quotePrecision: 8,
  orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET'],
  isSpotTradingAllowed: true,
  isMarginTradingAllowed: false,
  filters: [
    { filterType: 'PRICE_FILTER', minPrice: tickSize, maxPrice: '1000000.00000000', tickSize },
    { filterType: 'LOT_SIZE', minQty, maxQty: '9000000000.00000000', stepSize },
    { filterType: 'NOTIONAL', minNotional, applyMinToMarket: true, maxNotional: '9000000.00000000' },
  ],
  permissions: [],
  permissionSets: [['SPOT']],
});

const exchange = createCcxtExchange({
  exchange: 'binance',
  mode: 'sandbox',
  sandboxUrl: 'http://127.0.0.1:9',
  apiKey: 'k',
  secret: 's',
});
exchange.options.crossMarginPairsData = [];
exchange.options.isolatedMarginPairsData = [];
exchange.setMarkets([
  exchange.parseMarket(symbol('BTCUSDT', 'BTC', '0.01000000', '0.00001000', '0.00001000', '5.00000000')),
  exchange.parseMarket(symbol('TINYUSDT', 'TINY', '0.00000001', '1.00000000', '10.00000000', '1.00000000')),
]);

describe('market info from exchangeInfo', () => {
  it('reads tick, step, minQty and minNotional exactly', () => {
    const tiny = toMarketInfo(exchange.markets!['TINY/USDT']!);
    expect(tiny).toMatchObject({
      symbol: 'TINY/USDT',
      id: 'TINYUSDT',
      base: 'TINY',
      quote: 'USDT',
      active: true,
    });
    expect([tiny.tickSize, tiny.stepSize, tiny.minQty, tiny.minNotional].map((d) => d?.toFixed())).toEqual([
      '0.00000001',
      '1',
      '10',
      '1',
    ]);
  });
});

describe('priceToPrecision (ccxt: nearest tick)', () => {
  it.each([
    ['BTC/USDT', '60000.126', '60000.13'],
    ['BTC/USDT', '60000.124', '60000.12'],
    ['BTC/USDT', new Decimal('59400.005'), '59400.01'],
    ['TINY/USDT', '0.0000534951', '0.0000535'],
    ['TINY/USDT', '5.35e-5', '0.0000535'],
  ])('%s %s → %s', (market, price, expected) => {
    expect(priceToPrecision(exchange, market, price)).toBe(expected);
  });

  it('refuses a price below one tick', () => {
    expect(() => priceToPrecision(exchange, 'BTC/USDT', '0.004')).toThrowError(ExchangeError);
  });
});

describe('amountToPrecision (ccxt: truncated to the lot step)', () => {
  it.each([
    ['BTC/USDT', '0.123456789', '0.12345'],
    ['BTC/USDT', '0.00001999', '0.00001'],
    ['TINY/USDT', '1869158.87', '1869158'],
  ])('%s %s → %s', (market, amount, expected) => {
    expect(amountToPrecision(exchange, market, amount)).toBe(expected);
  });

  it('reports an amount below one step as ORDER_BELOW_EXCHANGE_MIN', () => {
    expect(() => amountToPrecision(exchange, 'BTC/USDT', '0.000009')).toThrowError(
      expect.objectContaining({ code: 'ORDER_BELOW_EXCHANGE_MIN' }),
    );
  });

  it('sizes a quote amount at a price without float error', () => {
    // 100 USDT at 0.0000535: 1869158.878… → 1869158 whole coins.
    expect(amountForQuote(exchange, 'TINY/USDT', '100', '0.0000535')).toBe('1869158');
    expect(amountForQuote(exchange, 'BTC/USDT', '100', '59400.01')).toBe('0.00168');
  });
});

describe('minimumViolation', () => {
  const btc = toMarketInfo(exchange.markets!['BTC/USDT']!);
  const tiny = toMarketInfo(exchange.markets!['TINY/USDT']!);
  it.each([
    [btc, '60000', '0.0001', null],
    [btc, '60000', '0.00008', 'MIN_NOTIONAL'],
    [btc, '60000', '0.000001', 'MIN_QTY'],
    [tiny, '0.00005', '9', 'MIN_QTY'],
    [tiny, '0.00005', '19999', 'MIN_NOTIONAL'],
    [tiny, '0.00005', '20000', null],
  ] as const)('%# %s × %s → %s', (market, price, amount, expected) => {
    expect(minimumViolation(market, price, amount)).toBe(expected);
  });
});
