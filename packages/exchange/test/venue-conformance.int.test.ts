import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BudgetEvent,
  clientOrderIdFor,
  createExchangeClient,
  createMemoryBudgetStore,
  createMemoryConnectionLimiter,
  createUserDataStreams,
  createVenueBudget,
  type ExchangeClient,
  type ExchangeClientOptions,
  ExchangeError,
  type ExchangeOrder,
  type PlaceOrderInput,
  type UserDataStreams,
  type UserDataStreamsLog,
} from '../src/index';
import { type SandboxProcess, startSandboxProcess } from './support/sandbox-process';

/**
 * The grid's life through the adapter, the same on every venue (docs/venues/README.md): one suite,
 * each venue's dialect of the sandbox over HTTP, ccxt's own class for the venue. What differs between
 * venues lives in their tables and in the adapter, never in these expectations — except how each
 * venue's fault is provoked in the sandbox (its control API) and the venue's own words for it.
 */
let sandbox: SandboxProcess;

beforeAll(async () => {
  sandbox = await startSandboxProcess();
  for (const symbol of ['BTCUSDT', 'ETHUSDT']) await sandbox.setLiquidity(symbol, 'infinite');
});
afterAll(async () => sandbox?.stop());

type Json = Record<string, unknown>;

/** A call of a dialect's own control API on its port (`/_sandbox/bybit/…`, `/_sandbox/okx/…`). */
const dialectControl = async (base: string, method: 'POST' | 'PUT', path: string, body: Json = {}) => {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as unknown;
};

/** How the sandbox makes a venue refuse a call over a limit, and the venue's words for it. */
type Throttle = {
  /** From now on the account's next open-orders queries go over the venue's limit. */
  provoke: () => Promise<unknown>;
  /** Limits our budget holds other than the table's (a venue that lowered its limit without saying so). */
  budgetLimits: Record<string, number>;
  /** The venue's code, and whose budget it closes: the IP's (Binance's weight) or one pool of the account. */
  code: string;
  scope: 'ip' | 'account';
  undo: () => Promise<unknown>;
};

/**
 * `minOrderValue`: the market's minimum order value as the venue lists it — OKX lists a minimum
 * size (`minSz`) only and refuses a too small order at placement (docs/venues/okx.md#filters).
 * `haltedStatus`: the venue's own words for a market that does not trade (Binance `HALT`, Bybit
 * `Closed`, OKX `suspend`). `ban`: how the sandbox bans this client's IP; OKX documents no IP ban
 * (docs/venues/okx.md#bans), so it has none.
 */
const VENUES = [
  {
    venue: 'binance',
    url: () => sandbox.url,
    // Past recvWindow behind, or more than 1 s ahead: -1021 (docs/venues/binance.md#clock).
    skewMs: 10_000,
    minOrderValue: '5',
    failNextOrder: (kind: 'drop' | 'unknown') => sandbox.failNextOrder({ kind }),
    throttle: (): Throttle => ({
      // A 429 with Retry-After; a request sent inside it earns a 418 (docs/venues/binance.md#bans).
      provoke: () => sandbox.control('POST', '/over-limit', { status: 429, retryAfterS: 2 }),
      budgetLimits: {},
      code: '-1003',
      scope: 'ip',
      undo: () => sandbox.control('POST', '/limits/reset'),
    }),
    ban: {
      impose: () => sandbox.control('POST', '/over-limit', { status: 418, retryAfterS: 120 }),
      minMs: 110_000,
      lift: () => sandbox.control('POST', '/limits/reset'),
    },
    // Binance weighs the trades read in the IP's minute of weight: no pool of its own.
    tradesPool: undefined,
    halt: () => sandbox.control('PUT', '/markets/XRPUSDT/status', { status: 'HALT' }),
    haltedStatus: 'HALT',
    setTick: (tick: string) => sandbox.control('PUT', '/markets/XRPUSDT/filters', { tickSize: tick }),
    silentStream: {
      silence: (apiKey: string) => sandbox.control('POST', '/faults/silent-stream', { apiKey }),
      lift: () => sandbox.control('POST', '/faults/silent-stream/lift'),
    },
  },
  {
    venue: 'bybit',
    url: () => sandbox.bybitUrl,
    // Outside [server − recv window, server + 1 s): 10002 (docs/venues/bybit.md#clock).
    skewMs: 10_000,
    minOrderValue: '5',
    failNextOrder: (kind: 'drop' | 'unknown') =>
      dialectControl(sandbox.bybitUrl, 'POST', '/_sandbox/bybit/faults/next-order', { kind }),
    throttle: (): Throttle => ({
      // The venue applies 1 a second to open-order queries (X-Bapi-Limit says so) while our
      // budget holds the table's 50: the venue's 10006 is what stops the second.
      provoke: () =>
        dialectControl(sandbox.bybitUrl, 'POST', '/_sandbox/bybit/limits', { ORDER_REALTIME: 1 }),
      budgetLimits: { ORDER_REALTIME: 50 },
      code: '10006',
      scope: 'account',
      undo: () => dialectControl(sandbox.bybitUrl, 'POST', '/_sandbox/bybit/limits/reset'),
    }),
    ban: {
      impose: () => dialectControl(sandbox.bybitUrl, 'POST', '/_sandbox/bybit/limits/ban', {}),
      // Bybit sends no Retry-After: the table's first ban, "at least 10 minutes".
      minMs: 9 * 60_000,
      lift: () => dialectControl(sandbox.bybitUrl, 'POST', '/_sandbox/bybit/limits/reset'),
    },
    // GET /v5/execution/list, 50 a second per UID (docs/venues/bybit.md#rate-limits).
    tradesPool: 'EXECUTION_LIST',
    halt: () => sandbox.control('PUT', '/markets/XRPUSDT/status', { status: 'HALT' }),
    haltedStatus: 'Closed',
    setTick: (tick: string) => sandbox.control('PUT', '/markets/XRPUSDT/filters', { tickSize: tick }),
    silentStream: {
      silence: (apiKey: string) =>
        dialectControl(sandbox.bybitUrl, 'POST', '/_sandbox/bybit/faults/silent-stream', { apiKey }),
      lift: () => dialectControl(sandbox.bybitUrl, 'POST', '/_sandbox/bybit/faults/silent-stream/lift'),
    },
  },
  {
    venue: 'okx',
    url: () => sandbox.okxUrl,
    // More than 30 s either way: 50102 (docs/venues/okx.md#clock).
    skewMs: 40_000,
    minOrderValue: undefined,
    failNextOrder: (kind: 'drop' | 'unknown') =>
      dialectControl(sandbox.okxUrl, 'POST', '/_sandbox/okx/faults/next-order', { kind }),
    throttle: (): Throttle => ({
      // OKX reports no usage: the table's 60 per 2 s is all our budget knows of the venue's 1.
      provoke: () => dialectControl(sandbox.okxUrl, 'POST', '/_sandbox/okx/limits', { ORDERS_PENDING: 1 }),
      budgetLimits: {},
      code: '50011',
      scope: 'account',
      undo: () => dialectControl(sandbox.okxUrl, 'POST', '/_sandbox/okx/limits/reset'),
    }),
    ban: undefined,
    // ccxt reads our trades from GET /api/v5/trade/fills-history, 10 per 2 s per User ID
    // (docs/venues/okx.md#rate-limits).
    tradesPool: 'FILLS_HISTORY',
    halt: () =>
      dialectControl(sandbox.okxUrl, 'PUT', '/_sandbox/okx/instruments/XRP-USDT/state', { state: 'suspend' }),
    haltedStatus: 'suspend',
    setTick: (tick: string) =>
      dialectControl(sandbox.okxUrl, 'PUT', '/_sandbox/okx/instruments/XRP-USDT/filters', { tickSz: tick }),
    silentStream: {
      silence: (apiKey: string) =>
        dialectControl(sandbox.okxUrl, 'POST', '/_sandbox/okx/faults/silent-stream', { apiKey }),
      lift: () => dialectControl(sandbox.okxUrl, 'POST', '/_sandbox/okx/faults/silent-stream/lift'),
    },
  },
] as const;

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
    return 'no error';
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return (error as ExchangeError).code;
  }
};

const refusalOf = async (promise: Promise<unknown>): Promise<ExchangeError> => {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return error as ExchangeError;
  }
  throw new Error('expected a refusal');
};

/** Our own client order ids (the venues' strictest rule: ≤ 32 letters and digits). */
const idFor = (side: 'buy' | 'sell', lotSeq: number) =>
  clientOrderIdFor({ coinBotId: randomUUID(), lotSeq, side, attempt: 0 });

/** A process's own request budget (memory), recording what it reports. */
const budgetFor = (limits: Record<string, number> = {}) => {
  const events: BudgetEvent[] = [];
  const budget = createVenueBudget({
    store: createMemoryBudgetStore(),
    maxWaitMs: 0,
    limits,
    onEvent: (event) => events.push(event),
  });
  return { budget, events, overLimit: () => events.filter((e) => e.kind === 'over-limit').length };
};

describe.each(VENUES)('$venue', (dialect) => {
  const { venue, url, minOrderValue } = dialect;
  const clientFor = (
    keys: { apiKey: string; secret: string; passphrase?: string },
    options: Pick<
      ExchangeClientOptions,
      'budget' | 'timeoutMs' | 'recvWindowMs' | 'userDataStreams' | 'privateStreamTiming'
    > = {},
  ): ExchangeClient =>
    createExchangeClient({
      exchange: venue,
      mode: 'sandbox',
      sandboxUrl: url(),
      apiKey: keys.apiKey,
      secret: keys.secret,
      ...(keys.passphrase ? { password: keys.passphrase } : {}),
      timeoutMs: 3000,
      ...options,
    });

  it('loads spot markets with tick, step and minimum order value as decimals, and its status', async () => {
    const client = clientFor(await sandbox.createAccount());
    const markets = await client.loadMarkets();
    expect(markets.map((m) => m.symbol)).toEqual(expect.arrayContaining(['BTC/USDT', 'ETH/USDT']));
    const btc = client.market('BTC/USDT');
    expect({
      tick: btc.tickSize.toFixed(),
      step: btc.stepSize.toFixed(),
      minNotional: btc.minNotional?.toFixed(),
      active: btc.active,
    }).toEqual({ tick: '0.01', step: '0.00001', minNotional: minOrderValue, active: true });
    expect(btc.status).not.toBeNull();
    expect(client.priceToPrecision('BTC/USDT', '60000.126')).toBe('60000.13');
    expect(client.amountToPrecision('BTC/USDT', '0.123456789')).toBe('0.12345');
    expect(() => client.market('DOGE/USDT')).toThrowError(
      expect.objectContaining({ code: 'COIN_NOT_LISTED' }),
    );
  });

  it('reads the balance and the ticker as decimals', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '1234.5' } }));
    await sandbox.setPrice('ETHUSDT', '3012.5');
    expect((await client.fetchTicker('ETH/USDT')).last.toFixed()).toBe('3012.5');
    const balance = await client.fetchBalance();
    expect(balance.USDT?.free.toFixed()).toBe('1234.5');
  });

  it('reads the range a market traded in since a moment (the price scan), every extreme inside it', async () => {
    const client = clientFor(await sandbox.createAccount());
    const since = Date.now() - 1000;
    for (const price of ['3000', '3150', '2900', '3010']) await sandbox.setPrice('ETHUSDT', price);
    const range = await client.fetchTradedRange('ETH/USDT', since);
    expect(range?.source).toBe('klines');
    expect(range?.low.lte(2900)).toBe(true);
    expect(range?.high.gte(3150)).toBe(true);
  });

  it("checks the key: spot without withdrawals is usable, the account's uid is read", async () => {
    const keys = await sandbox.createAccount();
    const client = clientFor(keys);
    expect(await client.assertUsableKey()).toMatchObject({
      spot: true,
      withdrawals: false,
      ipRestricted: false,
    });
    const uid = await client.fetchAccountUid();
    expect(uid).toMatch(/^\d+$/);
    expect(await clientFor(await sandbox.createAccount()).fetchAccountUid()).not.toBe(uid);
  });

  it('refuses a key that can withdraw, one without spot trading, one bound to other IPs, and a wrong secret', async () => {
    const withdraws = await sandbox.createAccount({ permissions: { spot: true, withdrawals: true } });
    expect(await codeOf(clientFor(withdraws).assertUsableKey())).toBe('API_KEY_WITHDRAW_ENABLED');
    const readOnly = await sandbox.createAccount({ permissions: { spot: false } });
    expect(await codeOf(clientFor(readOnly).assertUsableKey())).toBe('API_KEY_NO_SPOT');
    const elsewhere = await sandbox.createAccount({ ipWhitelist: ['203.0.113.7'] });
    expect(await codeOf(clientFor(elsewhere).assertUsableKey())).toBe('API_KEY_IP_NOT_ALLOWED');
    const keys = await sandbox.createAccount();
    expect(await codeOf(clientFor({ ...keys, secret: 'wrongsecret0123' }).assertUsableKey())).toBe(
      'API_KEY_INVALID',
    );
  });

  // On OKX the trading account's address, not the funding account's OKX lists first (deposit-address.ts).
  it("gives the account's TRC20 USDT deposit address, the same on every venue's dialect (withdraw_exchange)", async () => {
    const keys = await sandbox.createAccount();
    const address = await clientFor(keys).fetchDepositAddress('USDT', 'TRC20');
    expect(address.address).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    expect(address.tag).toBeNull();
    const onBinance = await createExchangeClient({
      exchange: 'binance',
      mode: 'sandbox',
      sandboxUrl: sandbox.url,
      ...keys,
    }).fetchDepositAddress('USDT', 'TRC20');
    expect(onBinance.address).toBe(address.address);
  });

  it('rests a limit buy, finds it by client id, fills it, sells it, and lists both fills with fees', async () => {
    const keys = await sandbox.createAccount({ balances: { USDT: '500' } });
    const client = clientFor(keys);
    await sandbox.setPrice('ETHUSDT', '3000');
    const since = Date.now() - 1000;
    const buyId = idFor('buy', 1);
    const buy = await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'limit',
      price: '2970',
      amount: '0.05',
      clientOrderId: buyId,
    });
    expect(buy).toMatchObject({ existing: false, order: { status: 'open', clientOrderId: buyId } });
    expect(buy.order.price?.toFixed()).toBe('2970');
    expect((await client.fetchOpenOrders('ETH/USDT')).map((o) => o.clientOrderId)).toEqual([buyId]);
    expect((await client.fetchBalance()).USDT?.free.toFixed()).toBe('351.5');

    await sandbox.setPrice('ETHUSDT', '2960');
    const filled = await client.fetchOrderByClientId('ETH/USDT', buyId);
    expect(filled).toMatchObject({ id: buy.order.id, status: 'closed', clientOrderId: buyId });
    expect(filled?.filled.toFixed()).toBe('0.05');

    const sellId = idFor('sell', 1);
    await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'sell',
      type: 'limit',
      price: '2999.7',
      amount: '0.0499',
      clientOrderId: sellId,
    });
    await sandbox.setPrice('ETHUSDT', '3001');
    const trades = await client.fetchMyTrades('ETH/USDT', since);
    expect(trades.map((t) => [t.side, t.price.toFixed(), t.amount.toFixed()])).toEqual([
      ['buy', '2970', '0.05'],
      ['sell', '2999.7', '0.0499'],
    ]);
    // The 0.1 % fee of the sale, in USDT: 0.0499 × 2999.7 × 0.001.
    expect(trades[1]?.feeQuote?.toFixed()).toBe('0.14968503');
    const ofBuy = await client.fetchOrderTrades('ETH/USDT', buy.order.id);
    expect(ofBuy.map((t) => t.amount.toFixed())).toEqual(['0.05']);
  });

  it('reports a resting buy filled in parts: open with part filled between, closed at the end, a trade per part', async () => {
    const keys = await sandbox.createAccount({ balances: { USDT: '500' } });
    const client = clientFor(keys);
    await sandbox.setPrice('ETHUSDT', '3000');
    const id = idFor('buy', 3);
    const { order } = await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'limit',
      price: '2970',
      amount: '0.015',
      clientOrderId: id,
    });
    // Finite depth: 10 USDT trades per price level the market passes (the sandbox's liquidity).
    await sandbox.setLiquidity('ETHUSDT', { quotePerLevel: '10' });
    try {
      await sandbox.setPrice('ETHUSDT', '2970');
      const part = await client.fetchOrderByClientId('ETH/USDT', id);
      expect(part).toMatchObject({ id: order.id, status: 'open' });
      expect(part!.filled.gt(0) && part!.filled.lt('0.015')).toBe(true);
      expect(part!.remaining.plus(part!.filled).toFixed()).toBe('0.015');
      await sandbox.setPrice('ETHUSDT', '2969');
      await sandbox.setPrice('ETHUSDT', '2960');
      const done = await client.fetchOrderByClientId('ETH/USDT', id);
      expect(done).toMatchObject({ status: 'closed' });
      expect(done?.filled.toFixed()).toBe('0.015');
      const trades = await client.fetchOrderTrades('ETH/USDT', order.id);
      expect(trades.length).toBeGreaterThan(1);
      expect(new Set(trades.map((t) => t.id)).size).toBe(trades.length);
      expect(trades.every((t) => t.price.eq(2970))).toBe(true);
      expect(Decimal.sum(...trades.map((t) => t.amount)).toFixed()).toBe('0.015');
    } finally {
      await sandbox.setLiquidity('ETHUSDT', 'infinite');
    }
  });

  it('buys at market for a quote amount', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '500' } }));
    await sandbox.setPrice('BTCUSDT', '50000');
    const id = idFor('buy', 2);
    const { order } = await client.placeOrder({
      symbol: 'BTC/USDT',
      side: 'buy',
      type: 'market',
      quoteAmount: '100',
      clientOrderId: id,
    });
    expect(order).toMatchObject({ clientOrderId: id, status: 'closed', side: 'buy' });
    expect(order.filled.toFixed()).toBe('0.002');
  });

  it('cancels a resting order by client id; a second cancel and an unknown order are told apart', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '500' } }));
    await sandbox.setPrice('ETHUSDT', '3000');
    const id = idFor('buy', 3);
    await client.placeOrder({
      symbol: 'ETH/USDT',
      side: 'buy',
      type: 'limit',
      price: '2900',
      amount: '0.01',
      clientOrderId: id,
    });
    const cancelled = await client.cancelOrder('ETH/USDT', { clientOrderId: id });
    expect(cancelled === null || cancelled.clientOrderId === id).toBe(true);
    expect(await client.fetchOpenOrders('ETH/USDT')).toEqual([]);
    expect((await client.fetchOrderByClientId('ETH/USDT', id))?.status).toBe('canceled');
    expect(await client.fetchOrderByClientId('ETH/USDT', idFor('buy', 4))).toBeNull();
    expect((await client.fetchBalance()).USDT?.free.toFixed()).toBe('500');
  });

  it.each([
    ['below the minimum order value', { price: '60000', amount: '0.00005' }, 'ORDER_BELOW_EXCHANGE_MIN'],
    ['above the balance', { price: '60000', amount: '1' }, 'EXCHANGE_INSUFFICIENT_BALANCE'],
  ])('refuses an order %s with its code, the exchange code kept', async (_name, sizing, code) => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '100' } }));
    const error = await client
      .placeOrder({
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'limit',
        clientOrderId: idFor('buy', 5),
        ...sizing,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    expect((error as ExchangeError).code).toBe(code);
    expect((error as ExchangeError).options.exchangeCode).toMatch(/^-?\d+$/);
  });
  it.each(['drop', 'unknown'] as const)(
    'a placement whose answer is lost (%s) is found by its client order id and never placed twice',
    async (kind) => {
      const keys = await sandbox.createAccount({ balances: { USDT: '500' } });
      // Short timeout and recvWindow: the look-up waits them out, then the order cannot land late.
      const client = clientFor(keys, { timeoutMs: 1000, recvWindowMs: 1000 });
      await client.loadMarkets();
      await sandbox.setPrice('BTCUSDT', '60000');
      const order: PlaceOrderInput = {
        symbol: 'BTC/USDT',
        side: 'buy',
        type: 'limit',
        price: '50000',
        amount: '0.001',
        clientOrderId: idFor('buy', 6),
      };
      await dialect.failNextOrder(kind);
      const placed = await client.placeOrder(order);
      expect(placed).toMatchObject({
        existing: false,
        order: { status: 'open', clientOrderId: order.clientOrderId },
      });
      const again = await client.placeOrder(order);
      expect(again).toMatchObject({ existing: true, order: { id: placed.order.id } });
      const holding = (await sandbox.orders(keys.apiKey)).filter(
        (o) => o.clientOrderId === order.clientOrderId,
      );
      expect(holding).toHaveLength(1);
    },
  );

  it('a rate-limit refusal makes the client wait (retryable, with the wait) and nothing is sent before the reset', async () => {
    const throttle = dialect.throttle();
    const keys = await sandbox.createAccount({ balances: { USDT: '100' } });
    const { budget, overLimit } = budgetFor(throttle.budgetLimits);
    const client = clientFor(keys, { budget });
    await client.loadMarkets();
    await throttle.provoke();
    try {
      // The venue counts in windows of its own: a query may slip into a fresh one, not five.
      const refused = await refusalOf(
        (async () => {
          for (let i = 0; i < 5; i++) await client.fetchOpenOrders('ETH/USDT');
        })(),
      );
      expect(refused.code).toBe('EXCHANGE_UNAVAILABLE');
      expect(refused.options).toMatchObject({
        retryable: true,
        exchangeCode: throttle.code,
        wait: { scope: throttle.scope, reason: 'closed' },
      });
      const resumeAt = refused.options.wait!.resumeAt;
      expect(resumeAt).toBeGreaterThan(Date.now());
      expect(overLimit()).toBe(1);
      // Before the reset the same query is refused here: the venue does not hear of it (on Binance
      // it would earn a 418 ban, on every venue another refusal).
      const again = await refusalOf(client.fetchOpenOrders('ETH/USDT'));
      expect(again.options.wait).toMatchObject({ resumeAt, scope: throttle.scope });
      expect(overLimit()).toBe(1);
      // A venue that counts per endpoint closes only that endpoint: the balance is read meanwhile.
      if (throttle.scope === 'account')
        expect((await client.fetchBalance()).USDT?.free.toFixed()).toBe('100');
      await sleep(Math.max(0, resumeAt - Date.now()) + 20);
      expect(await client.fetchOpenOrders('ETH/USDT')).toEqual([]);
      expect(overLimit()).toBe(1);
    } finally {
      await throttle.undo();
    }
  });

  it.runIf(dialect.tradesPool !== undefined)(
    "a trades read is costed in its endpoint's pool: past its limit the budget stops it before the venue hears of it",
    async () => {
      const pool = dialect.tradesPool!;
      const keys = await sandbox.createAccount();
      const { budget, events, overLimit } = budgetFor({ [pool]: 1 });
      const client = clientFor(keys, { budget });
      await client.loadMarkets();
      // Both reads in one window (1 s on Bybit, 2 s on OKX), past its first tenth (its grace, in
      // which a request counts in the window before too).
      const windowMs = pool === 'FILLS_HISTORY' ? 2000 : 1000;
      await sleep(windowMs - (Date.now() % windowMs) + windowMs / 10 + 20);
      expect(await client.fetchMyTrades('ETH/USDT')).toEqual([]);
      const refused = await refusalOf(client.fetchMyTrades('ETH/USDT'));
      expect(refused.options).toMatchObject({ retryable: true, wait: { scope: 'account', reason: 'full' } });
      expect(events.filter((e) => e.kind === 'refused')).toHaveLength(1);
      expect(overLimit()).toBe(0);
    },
  );

  it.runIf(dialect.ban !== undefined)(
    'an IP ban closes the IP: every client of the IP waits the ban out, cancels and public calls included',
    async () => {
      const ban = dialect.ban!;
      const keys = await sandbox.createAccount();
      const { budget, overLimit } = budgetFor();
      const client = clientFor(keys, { budget });
      const other = clientFor(await sandbox.createAccount(), { budget });
      await Promise.all([client.loadMarkets(), other.loadMarkets()]);
      await ban.impose();
      try {
        // One request (a public one): the ban covers every call of the IP.
        const refused = await refusalOf(client.fetchTicker('ETH/USDT'));
        expect(refused.options).toMatchObject({ retryable: true, wait: { scope: 'ip', reason: 'closed' } });
        const resumeAt = refused.options.wait!.resumeAt;
        expect(resumeAt - Date.now()).toBeGreaterThan(ban.minMs);
        expect(overLimit()).toBe(1);
        await ban.lift();
        // The venue has lifted it, but the IP waits out the ban it was told of: nothing is sent, by
        // this key's client or another's, a cancel (high priority) included.
        const calls = [
          () => other.fetchBalance(),
          () => other.cancelOrder('ETH/USDT', { clientOrderId: idFor('buy', 7) }),
          () => client.fetchOpenOrders('ETH/USDT'),
        ];
        for (const call of calls) {
          const waiting = await refusalOf(call());
          expect(waiting.options.wait).toMatchObject({ scope: 'ip', resumeAt });
        }
        expect(overLimit()).toBe(1);
      } finally {
        await ban.lift();
      }
    },
  );

  it('reports a halted market by its status: inactive after a refresh, an order refused', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '100' } }));
    await client.loadMarkets();
    expect(client.market('XRP/USDT').active).toBe(true);
    await dialect.halt();
    try {
      await client.loadMarkets(true);
      expect(client.market('XRP/USDT')).toMatchObject({ active: false, status: dialect.haltedStatus });
      const refused = await refusalOf(
        client.placeOrder({
          symbol: 'XRP/USDT',
          side: 'buy',
          type: 'limit',
          price: '0.5',
          amount: '20',
          clientOrderId: idFor('buy', 8),
        }),
      );
      expect(refused.code).toBe('ORDER_REJECTED');
    } finally {
      await sandbox.control('PUT', '/markets/XRPUSDT/status', { status: 'TRADING' });
    }
    await client.loadMarkets(true);
    expect(client.market('XRP/USDT').active).toBe(true);
  });

  it('picks up a changed tick when the markets are refreshed', async () => {
    const client = clientFor(await sandbox.createAccount());
    await client.loadMarkets();
    expect(client.market('XRP/USDT').tickSize.toFixed()).toBe('0.0001');
    await dialect.setTick('0.001');
    try {
      await client.loadMarkets(true);
      expect(client.market('XRP/USDT').tickSize.toFixed()).toBe('0.001');
      expect(client.priceToPrecision('XRP/USDT', '0.51234')).toBe('0.512');
    } finally {
      await dialect.setTick('0.0001');
    }
    await client.loadMarkets(true);
    expect(client.market('XRP/USDT').tickSize.toFixed()).toBe('0.0001');
  });
  it('a clock that steps after the start: a signed call refused for its timestamp re-measures the offset and is sent once more', async () => {
    const client = clientFor(await sandbox.createAccount({ balances: { USDT: '100' } }));
    await client.loadMarkets();
    try {
      for (const offsetMs of [dialect.skewMs, -dialect.skewMs, 0]) {
        await sandbox.control('PUT', '/clock', { offsetMs });
        expect((await client.fetchBalance()).USDT?.free.toFixed()).toBe('100');
        expect(await client.fetchOpenOrders('ETH/USDT')).toEqual([]);
      }
    } finally {
      await sandbox.control('PUT', '/clock', { offsetMs: 0 });
    }
  });

  it('a private stream gone silent (open, not a byte more) is declared dead within its silence window, followed again (resumed), and a fill made meanwhile is found', async () => {
    // Short heartbeat and silence: a healthy connection hears a frame every 300 ms (our ping's pong
    // on Bybit and OKX, Binance's ping), a silent one is dead after 1.5 s.
    const SILENCE_MS = 1500;
    const keys = await sandbox.createAccount({ balances: { USDT: '500' } });
    const log: UserDataStreamsLog[] = [];
    let binanceStreams: UserDataStreams | undefined;
    if (venue === 'binance') await sandbox.userData.setLimits({ pingIntervalMs: 300 });
    const client = clientFor(
      keys,
      venue === 'binance'
        ? {
            userDataStreams: (url) =>
              (binanceStreams ??= createUserDataStreams({
                url,
                limiter: createMemoryConnectionLimiter({ attempts: 100, windowMs: 1000 }),
                minBackoffMs: 100,
                maxBackoffMs: 300,
                connection: { silenceMs: SILENCE_MS, requestTimeoutMs: 1000 },
                log: (entry) => log.push(entry),
              })),
          }
        : {
            privateStreamTiming: {
              pingEveryMs: 300,
              silenceMs: SILENCE_MS,
              setupTimeoutMs: 3000,
              minBackoffMs: 100,
              maxBackoffMs: 300,
            },
          },
    );
    const updates: ExchangeOrder[] = [];
    const subscribed: { resumed: boolean }[] = [];
    const errors: unknown[] = [];
    const stop = client.streamOrderUpdates({
      onUpdate: (order) => updates.push(order),
      onSubscribed: (info) => subscribed.push(info),
      onError: (error) => errors.push(error),
    });
    const waitFor = async (check: () => boolean, what: string, timeoutMs = 10_000) => {
      const until = Date.now() + timeoutMs;
      while (!check()) {
        if (Date.now() > until) throw new Error(`still waiting for ${what}`);
        await sleep(20);
      }
    };
    /** The follower cut the connection for its silence: Bybit and OKX report it, Binance logs it. */
    const declaredDead = () =>
      errors.some((e) => /silent for 1500 ms/.test(String((e as Error).message))) ||
      log.some((e) => e.event === 'closed' && /silent for 1500 ms/.test(e.reason ?? ''));
    try {
      await waitFor(() => subscribed.length === 1, 'the subscription');
      // Longer than the silence window: a healthy connection is not taken for a silent one.
      await sleep(SILENCE_MS + 500);
      expect(declaredDead()).toBe(false);
      await sandbox.setPrice('ETHUSDT', '3000');
      const id = idFor('buy', 9);
      const { order } = await client.placeOrder({
        symbol: 'ETH/USDT',
        side: 'buy',
        type: 'limit',
        price: '2970',
        amount: '0.05',
        clientOrderId: id,
      });
      await waitFor(
        () => updates.some((o) => o.clientOrderId === id && o.status === 'open'),
        'the open order',
      );

      await dialect.silentStream.silence(keys.apiKey);
      const silencedAt = Date.now();
      // Filled while the stream says nothing.
      await sandbox.setPrice('ETHUSDT', '2960');
      await waitFor(declaredDead, 'the silent connection declared dead');
      // At most the window after the last frame heard, which came before the fault.
      expect(Date.now() - silencedAt).toBeLessThan(SILENCE_MS + 1500);
      expect(updates.some((o) => o.clientOrderId === id && o.status === 'closed')).toBe(false);
      expect(subscribed).toEqual([{ resumed: false }]);
      // New connections stay silent while the fault lasts: nothing resumes yet.
      await sleep(SILENCE_MS);
      expect(subscribed).toEqual([{ resumed: false }]);

      await dialect.silentStream.lift();
      await waitFor(() => subscribed.length === 2, 'the resumed subscription');
      expect(subscribed).toEqual([{ resumed: false }, { resumed: true }]);
      // `resumed` is the engine's cue to reconcile the account (apps/worker order-streams.ts): the
      // venue pushes nothing of what happened meanwhile, the order's own state has the fill.
      const found = await client.fetchOrderByClientId('ETH/USDT', id);
      expect(found).toMatchObject({ id: order.id, status: 'closed' });
      expect(found?.filled.toFixed()).toBe('0.05');
      expect((await client.fetchOrderTrades('ETH/USDT', order.id)).map((t) => t.amount.toFixed())).toEqual([
        '0.05',
      ]);
      // The stream that came back reports what follows.
      const next = idFor('buy', 10);
      await client.placeOrder({
        symbol: 'ETH/USDT',
        side: 'buy',
        type: 'limit',
        price: '2900',
        amount: '0.05',
        clientOrderId: next,
      });
      await waitFor(
        () => updates.some((o) => o.clientOrderId === next && o.status === 'open'),
        'the next order',
      );
    } finally {
      await dialect.silentStream.lift();
      await stop();
      await binanceStreams?.close();
      if (venue === 'binance') await sandbox.userData.setLimits({ pingIntervalMs: 20_000 });
    }
  });
});
