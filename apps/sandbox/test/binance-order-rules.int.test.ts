import { createExchangeClient, type ExchangeClient } from '@gridbot/exchange';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { type BinanceJson, type Credentials, limitOrder, signed } from './support/binance-http';

/**
 * The sandbox as strict as Binance (issue 21): finite liquidity, so orders fill in parts; the order
 * types and times in force our clients may send; MAX_NUM_ORDERS and PERCENT_PRICE_BY_SIDE; fees in
 * BNB. Each rule cites Binance's documentation where it is implemented (docs/venues/binance.md).
 */
let sandbox: SandboxExchangeHandle;
let trader: Credentials;
let client: ExchangeClient;

const post = (params: Record<string, string>, creds = trader) =>
  signed(sandbox.url, 'POST', '/api/v3/order', creds, params);
const balance = (asset: string) =>
  sandbox.control.account(trader.apiKey).balances.find((b) => b.asset === asset) ?? {
    asset,
    free: '0.00000000',
    locked: '0.00000000',
  };
const control = async (method: string, path: string, body: unknown) => {
  const response = await fetch(`${sandbox.url}/_sandbox${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as BinanceJson };
};

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    markets: [
      // No liquidity given: the default book, as in the demo (10 USDT a level, levels 0.1 % apart).
      {
        base: 'ETH',
        quote: 'USDT',
        tickSize: '0.01',
        stepSize: '0.0001',
        minNotional: '5',
        feed: { kind: 'fixed', price: '3000' },
      },
      {
        base: 'BNB',
        quote: 'USDT',
        tickSize: '0.01',
        stepSize: '0.001',
        minNotional: '5',
        feed: { kind: 'fixed', price: '600' },
      },
      {
        base: 'XRP',
        quote: 'USDT',
        tickSize: '0.0001',
        stepSize: '0.1',
        minNotional: '5',
        feed: { kind: 'fixed', price: '1' },
        percentPriceBySide: {
          bidMultiplierUp: '1.2',
          bidMultiplierDown: '0.8',
          askMultiplierUp: '1.2',
          askMultiplierDown: '0.8',
          avgPriceMins: 1,
        },
      },
    ],
  });
});
afterAll(async () => sandbox.close());
beforeEach(() => {
  trader = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  client = createExchangeClient({ exchange: 'binance', mode: 'sandbox', sandboxUrl: sandbox.url, ...trader });
  sandbox.control.setPrice('ETHUSDT', '3000');
});

/** The account's user data stream (listenKey WebSocket), keeping every message. */
const openUserStream = async () => {
  const response = await fetch(`${sandbox.url}/api/v3/userDataStream`, {
    method: 'POST',
    headers: { 'X-MBX-APIKEY': trader.apiKey },
  });
  const { listenKey } = (await response.json()) as { listenKey: string };
  const ws = new WebSocket(`${sandbox.wsUrl}/ws/${listenKey}`);
  const messages: BinanceJson[] = [];
  ws.on('message', (data) => messages.push(JSON.parse(String(data))));
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
  };
  return { ws, messages, until };
};

describe('partial fills against finite liquidity', () => {
  it('fills a resting buy in parts over several price steps: PARTIALLY_FILLED between, one trade id each', async () => {
    expect(sandbox.control.markets().find((m) => m.symbol === 'ETHUSDT')?.liquidity).toEqual({
      quotePerLevel: '10',
      levelSpacingPct: '0.1',
    });
    const stream = await openUserStream();
    await client.loadMarkets();
    const placed = await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'limit',
      price: '2970.00',
      amount: '0.0150',
      clientOrderId: 'part-1',
    });
    expect(placed.order.status).toBe('open');

    // The price touches the order: one level trades, 10 USDT at 2970 = 0.0033 ETH.
    sandbox.control.setPrice('ETHUSDT', '2970');
    const first = await client.fetchOrderByClientId('ETH/USDT', 'part-1');
    expect(first).toMatchObject({ status: 'open' });
    expect(first?.filled.toFixed()).toBe('0.0033');
    expect(first?.remaining.toFixed()).toBe('0.0117');
    const raw = await signed(sandbox.url, 'GET', '/api/v3/order', trader, {
      symbol: 'ETHUSDT',
      origClientOrderId: 'part-1',
    });
    expect(raw.body).toMatchObject({ status: 'PARTIALLY_FILLED', executedQty: '0.00330000' });
    // What is still unfilled stays locked at the order's price: 44.55 − 9.801.
    expect(balance('USDT')).toMatchObject({ free: '955.45000000', locked: '34.74900000' });

    // Just through it again: another level; then 0.34 % deep: four levels, more than is left.
    sandbox.control.setPrice('ETHUSDT', '2969');
    sandbox.control.setPrice('ETHUSDT', '2960');
    const done = await client.fetchOrderByClientId('ETH/USDT', 'part-1');
    expect(done).toMatchObject({ status: 'closed' });
    const trades = await client.fetchOrderTrades('ETH/USDT', done!.id);
    expect(trades.map((t) => t.amount.toFixed())).toEqual(['0.0033', '0.0033', '0.0084']);
    expect(trades.every((t) => t.price.eq(2970) && t.takerOrMaker === 'maker')).toBe(true);
    expect(new Set(trades.map((t) => t.id)).size).toBe(3);
    expect(balance('USDT')).toMatchObject({ free: '955.45000000', locked: '0.00000000' });

    await stream.until(() => stream.messages.filter((m) => m.x === 'TRADE').length === 3);
    const reports = stream.messages.filter((m) => m.e === 'executionReport' && m.c === 'part-1');
    expect(reports.map((m) => [m.x, m.X, m.l, m.z])).toEqual([
      ['NEW', 'NEW', '0.00000000', '0.00000000'],
      ['TRADE', 'PARTIALLY_FILLED', '0.00330000', '0.00330000'],
      ['TRADE', 'PARTIALLY_FILLED', '0.00330000', '0.00660000'],
      ['TRADE', 'FILLED', '0.00840000', '0.01500000'],
    ]);
    expect(reports.slice(1).map((m) => String(m.t))).toEqual(trades.map((t) => t.id));
    stream.ws.close();
  });

  it('sweeps a market buy across levels, one trade per level, the average price above the last', async () => {
    const { body } = await post({ symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', quantity: '0.0100' });
    expect(body).toMatchObject({
      status: 'FILLED',
      executedQty: '0.01000000',
      cummulativeQuoteQty: '30.03060000',
    });
    expect(body.fills.map((f: BinanceJson) => [f.price, f.qty])).toEqual([
      ['3000.00000000', '0.00330000'],
      ['3003.00000000', '0.00330000'],
      ['3006.00000000', '0.00330000'],
      ['3009.00000000', '0.00010000'],
    ]);
    expect(new Set(body.fills.map((f: BinanceJson) => f.tradeId)).size).toBe(4);
    expect(balance('USDT').free).toBe('969.96940000');
  });

  it('gives whole fills once the market is made infinitely liquid through the control API', async () => {
    const set = await control('PUT', '/markets/ETHUSDT/liquidity', { liquidity: 'infinite' });
    expect(set.body.liquidity).toBe('infinite');
    try {
      const { body } = await post({ symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', quantity: '0.0100' });
      expect(body.fills).toHaveLength(1);
      expect(body.fills[0]).toMatchObject({ price: '3000.00000000', qty: '0.01000000' });
    } finally {
      await control('PUT', '/markets/ETHUSDT/liquidity', { liquidity: { quotePerLevel: '10' } });
    }
  });
});

describe('order types and times in force (enums.md, rest-api.md "New order")', () => {
  it('refuses a LIMIT_MAKER that would take (-2010) and rests one that would not', async () => {
    const taking = await post({
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'LIMIT_MAKER',
      quantity: '0.0100',
      price: '3000.00',
    });
    expect(taking).toEqual({
      status: 400,
      body: { code: -2010, msg: 'Order would immediately match and take.' },
    });
    const withTif = await post({
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'LIMIT_MAKER',
      timeInForce: 'GTC',
      quantity: '0.0100',
      price: '2999.99',
    });
    expect(withTif.body).toEqual({ code: -1106, msg: "Parameter 'timeInForce' sent when not required." });
    const resting = await post({
      symbol: 'ETHUSDT',
      side: 'BUY',
      type: 'LIMIT_MAKER',
      quantity: '0.0100',
      price: '2999.99',
    });
    expect(resting.body).toMatchObject({ status: 'NEW', type: 'LIMIT_MAKER', timeInForce: 'GTC', fills: [] });
    expect(balance('USDT')).toMatchObject({ locked: '29.99990000' });
  });

  it('IOC fills what crosses now and expires the rest, giving its lock back', async () => {
    const { body } = await post({ ...limitOrder('ETHUSDT', 'BUY', '0.0100', '3003.00'), timeInForce: 'IOC' });
    expect(body).toMatchObject({ status: 'EXPIRED', timeInForce: 'IOC', executedQty: '0.00660000' });
    expect(body.fills.map((f: BinanceJson) => f.price)).toEqual(['3000.00000000', '3003.00000000']);
    // 0.0033 × 3000 + 0.0033 × 3003 = 19.8099 spent; nothing stays locked.
    expect(balance('USDT')).toMatchObject({ free: '980.19010000', locked: '0.00000000' });
    expect(sandbox.control.orders(trader.apiKey, 'ETHUSDT')[0]).toMatchObject({ status: 'EXPIRED' });
  });

  it('FOK expires with nothing filled unless all of it fills at once', async () => {
    const short = await post({ ...limitOrder('ETHUSDT', 'BUY', '0.0100', '3003.00'), timeInForce: 'FOK' });
    expect(short.body).toMatchObject({ status: 'EXPIRED', executedQty: '0.00000000', fills: [] });
    expect(balance('USDT')).toMatchObject({ free: '1000.00000000', locked: '0.00000000' });
    const whole = await post({ ...limitOrder('ETHUSDT', 'BUY', '0.0100', '3009.00'), timeInForce: 'FOK' });
    expect(whole.body).toMatchObject({ status: 'FILLED', executedQty: '0.01000000' });
    expect(whole.body.fills).toHaveLength(4);
    const bad = await post({ ...limitOrder('ETHUSDT', 'BUY', '0.0100', '2900.00'), timeInForce: 'GTX' });
    expect(bad.body).toEqual({ code: -1115, msg: 'Invalid timeInForce.' });
  });
});

describe('filters (filters.md, errors.md#filter-failures)', () => {
  it('MAX_NUM_ORDERS: refuses the 201st open order on a symbol, and takes one again after a cancel', async () => {
    sandbox.control.setBalances(trader.apiKey, { USDT: '2000' });
    const info = await fetch(`${sandbox.url}/api/v3/exchangeInfo?symbol=ETHUSDT`).then((r) => r.json());
    const filter = (info as BinanceJson).symbols[0].filters.find(
      (f: BinanceJson) => f.filterType === 'MAX_NUM_ORDERS',
    );
    expect(filter.maxNumOrders).toBe(200);
    // 200 orders in a few seconds are over Binance's 100 per 10 s (the ORDERS pool, a rule of its own).
    sandbox.control.setLimits({ ORDERS_10S: 1000 });
    for (let i = 0; i < 200; i++) {
      const { status } = await post(limitOrder('ETHUSDT', 'BUY', '0.0020', '2900.00', `max-${i}`));
      expect(status).toBe(200);
    }
    const over = await post(limitOrder('ETHUSDT', 'BUY', '0.0020', '2900.00', 'max-200'));
    expect(over).toEqual({ status: 400, body: { code: -1013, msg: 'Filter failure: MAX_NUM_ORDERS' } });
    // Nothing was locked for the refused order.
    expect(balance('USDT')).toMatchObject({ locked: '1160.00000000' });
    await signed(sandbox.url, 'DELETE', '/api/v3/order', trader, {
      symbol: 'ETHUSDT',
      origClientOrderId: 'max-0',
    });
    const again = await post(limitOrder('ETHUSDT', 'BUY', '0.0020', '2900.00', 'max-200'));
    expect(again.body).toMatchObject({ status: 'NEW' });
  });

  it("PERCENT_PRICE_BY_SIDE: a limit price beyond Binance's default multipliers (0.2–5 × the average) is refused", async () => {
    // The average of the last five minutes' steps is near 3,000: bids from ~600, asks up to ~15,000.
    const low = await post(limitOrder('ETHUSDT', 'BUY', '0.0100', '550.00'));
    expect(low.body).toEqual({ code: -1013, msg: 'Filter failure: PERCENT_PRICE_BY_SIDE' });
    const inside = await post(limitOrder('ETHUSDT', 'BUY', '0.0100', '650.00'));
    expect(inside.body).toMatchObject({ status: 'NEW' });
    const high = await post(limitOrder('ETHUSDT', 'SELL', '0.0100', '16000.00'));
    expect(high.body).toEqual({ code: -1013, msg: 'Filter failure: PERCENT_PRICE_BY_SIDE' });
  });

  it('PERCENT_PRICE_BY_SIDE checks against the average price over avgPriceMins, not the last price', async () => {
    sandbox.control.setBalances(trader.apiKey, { XRP: '100' });
    for (let i = 0; i < 3; i++) sandbox.control.setPrice('XRPUSDT', '1');
    sandbox.control.setPrice('XRPUSDT', '2');
    // Five steps in the last minute: 1, 1, 1, 1, 2 → 1.2; asks within [0.96, 1.44].
    const avg = await fetch(`${sandbox.url}/api/v3/avgPrice?symbol=XRPUSDT`).then((r) => r.json());
    expect(avg).toMatchObject({ price: '1.20000000' });
    const atLast = await post(limitOrder('XRPUSDT', 'SELL', '10', '2.0000'));
    expect(atLast.body).toEqual({ code: -1013, msg: 'Filter failure: PERCENT_PRICE_BY_SIDE' });
    const nearAverage = await post(limitOrder('XRPUSDT', 'SELL', '10', '1.4000'));
    expect(nearAverage.body).toMatchObject({ status: 'FILLED' });
  });
});

describe('commission in BNB (faqs/commission_faq.md)', () => {
  it('charges the fee in BNB at the 25 % discount when the account opted in and holds enough, else in the asset received', async () => {
    sandbox.control.setBalances(trader.apiKey, { BNB: '1' });
    const before = await signed(sandbox.url, 'GET', '/api/v3/account/commission', trader, {
      symbol: 'ETHUSDT',
    });
    expect(before.body.discount).toEqual({
      enabledForAccount: false,
      enabledForSymbol: true,
      discountAsset: 'BNB',
      discount: '0.25000000',
    });
    const opted = await control('PUT', `/accounts/${trader.apiKey}/bnb-burn`, { spotBNBBurn: true });
    expect(opted.body).toEqual({ spotBNBBurn: true });

    await post(limitOrder('ETHUSDT', 'BUY', '0.0030', '2990.00', 'bnb-1'));
    sandbox.control.setPrice('ETHUSDT', '2990');
    // 0.003 ETH × 0.1 % = 0.000003 ETH = 0.00897 USDT; × 0.75 / 600 USDT = 0.0000112125 → 0.00001122 BNB.
    const [trade] = sandbox.control.trades(trader.apiKey, 'ETHUSDT');
    expect(trade).toMatchObject({ commission: '0.00001122', commissionAsset: 'BNB', qty: '0.00300000' });
    expect(balance('ETH').free).toBe('0.00300000');
    expect(balance('BNB').free).toBe('0.99998878');
    await client.loadMarkets();
    const [seen] = await client.fetchOrderTrades('ETH/USDT', String(trade!.orderId));
    expect(seen?.fee).toEqual({ cost: expect.anything(), currency: 'BNB' });
    expect(seen?.feeQuote?.toFixed()).toBe('0.006732');

    const account = await signed(sandbox.url, 'GET', '/api/v3/account', trader);
    expect(account.body).toMatchObject({
      makerCommission: 10,
      takerCommission: 10,
      commissionRates: {
        maker: '0.00100000',
        taker: '0.00100000',
        buyer: '0.00000000',
        seller: '0.00000000',
      },
    });
    const after = await signed(sandbox.url, 'GET', '/api/v3/account/commission', trader, {
      symbol: 'ETHUSDT',
    });
    expect(after.body.discount.enabledForAccount).toBe(true);

    // Too little BNB for the discounted fee: the full fee comes out of the ETH received.
    sandbox.control.setBalances(trader.apiKey, { BNB: '0.00001' });
    sandbox.control.setPrice('ETHUSDT', '3000');
    await post(limitOrder('ETHUSDT', 'BUY', '0.0030', '2990.00', 'bnb-2'));
    sandbox.control.setPrice('ETHUSDT', '2990');
    const second = sandbox.control.trades(trader.apiKey, 'ETHUSDT')[1];
    expect(second).toMatchObject({ commission: '0.00000300', commissionAsset: 'ETH' });
    expect(balance('BNB').free).toBe('0.00001000');
    expect(balance('ETH').free).toBe('0.00599700');
  });
});
