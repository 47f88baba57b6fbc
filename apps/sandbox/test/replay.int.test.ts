import { fileURLToPath } from 'node:url';
import { createExchangeClient, type ExchangeClient } from '@gridbot/exchange';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCandleFile, type SandboxExchangeHandle, startSandboxExchange } from '../src/index';

const candleFile = fileURLToPath(new URL('../../../data/candles/ETH-BTC-1m.csv', import.meta.url));
const candles = loadCandleFile(candleFile);

let sandbox: SandboxExchangeHandle;
let client: ExchangeClient;
let apiKey: string;

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    markets: [
      {
        base: 'ETH',
        quote: 'USDT',
        tickSize: '0.01',
        stepSize: '0.0001',
        minNotional: '5',
        // ETH/BTC of January 2018, rescaled so that its first close is 3000 USDT.
        feed: { kind: 'candles', candles, firstClose: '3000' },
        // One trade per crossed order: this test follows the replayed path, not the book's depth.
        liquidity: 'infinite',
      },
    ],
  });
  const account = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  apiKey = account.apiKey;
  client = createExchangeClient({
    exchange: 'binance',
    mode: 'sandbox',
    sandboxUrl: sandbox.url,
    ...account,
  });
  await client.loadMarkets();
});
afterAll(async () => sandbox.close());

/** Advances the replay until `done` or `maxSteps`; returns the prices seen. */
const advanceUntil = (done: () => boolean, maxSteps: number): Decimal[] => {
  const seen: Decimal[] = [];
  for (let i = 0; i < maxSteps && !done(); i++) {
    sandbox.control.advance(1, 'ETHUSDT');
    seen.push(new Decimal(sandbox.control.price('ETHUSDT')));
  }
  return seen;
};

describe('replayed real candles drive the matching engine', () => {
  it('starts at the rescaled level and follows the recorded path', () => {
    const scale = new Decimal(3000).div(candles[0]!.close);
    const first = candles[0]!;
    expect(sandbox.control.price('ETHUSDT')).toBe(
      new Decimal(first.open).mul(scale).toFixed(2).concat('000000'),
    );
    sandbox.control.advance(4, 'ETHUSDT');
    expect(sandbox.control.price('ETHUSDT')).toBe('3000.00000000');
  });

  it('fills a resting buy 1 % down at its own price, then its take-profit 1 % up', async () => {
    const since = Date.now() - 1000;
    const start = new Decimal(sandbox.control.price('ETHUSDT'));
    const buyPrice = client.priceToPrecision('ETH/USDT', start.mul(0.99));
    const amount = client.amountForQuote('ETH/USDT', '100', buyPrice);
    const buy = await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'limit',
      price: buyPrice,
      amount,
      clientOrderId: 'replay-1-b',
    });
    expect(buy.order.status).toBe('open');

    const filled = () => sandbox.control.trades(apiKey, 'ETHUSDT').length === 1;
    const path = advanceUntil(filled, 20_000);
    expect(filled()).toBe(true);
    // The fill came on the first step at or below the limit, at the limit price itself.
    expect(path.at(-1)!.lte(buyPrice)).toBe(true);
    expect(path.slice(0, -1).every((p) => p.gt(buyPrice))).toBe(true);
    const [buyFill] = await client.fetchMyTrades('ETH/USDT', since);
    expect(buyFill!.price.eq(buyPrice)).toBe(true);
    expect(buyFill!.fee!.currency).toBe('ETH');
    expect(buyFill!.feeQuote!.toFixed()).toBe(new Decimal(amount).mul(buyPrice).mul('0.001').toFixed());

    const held = new Decimal(amount).mul('0.999');
    const sellPrice = client.priceToPrecision('ETH/USDT', new Decimal(buyPrice).mul(1.01));
    await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'sell',
      type: 'limit',
      price: sellPrice,
      amount: client.amountToPrecision('ETH/USDT', held),
      clientOrderId: 'replay-1-s',
    });
    const sold = () => sandbox.control.trades(apiKey, 'ETHUSDT').length === 2;
    const up = advanceUntil(sold, 20_000);
    expect(sold()).toBe(true);
    expect(up.at(-1)!.gte(sellPrice)).toBe(true);
    const sellFill = (await client.fetchMyTrades('ETH/USDT', since))[1]!;
    expect(sellFill.price.eq(sellPrice)).toBe(true);
    expect(sellFill.fee!.currency).toBe('USDT');
    const balance = await client.fetchBalance();
    expect(balance.USDT!.free.gt(1000)).toBe(true);
  });
});
