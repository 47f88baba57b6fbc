import { createHash } from 'node:crypto';
import { venueSpec } from '@gridbot/venues';
import ccxt, { type Exchange } from 'ccxt';
import { attachBudget } from './budget/attach-budget';
import { classifyFailure, ExchangeError } from './errors';
import { pointAtSandbox } from './sandbox-urls';
import { shareMarkets } from './shared-markets';
import type { ExchangeCapabilities, ExchangeClientOptions } from './types';
import { VENUE_ORDER_STREAMS } from './venue-streams/venue-order-stream';

type ExchangeClass = new (config?: Record<string, unknown>) => Exchange;

/** `pro`: ccxt pro's class (REST plus WebSocket streams) of the same exchange. */
const exchangeClass = (id: string, pro = false): ExchangeClass => {
  const found = ((pro ? ccxt.pro : ccxt) as unknown as Record<string, unknown>)[id];
  if (!ccxt.exchanges.includes(id) || typeof found !== 'function') {
    throw new ExchangeError('EXCHANGE_UNSUPPORTED', `ccxt has no exchange "${id}"`);
  }
  return found as ExchangeClass;
};

/** Exchanges whose API reports a key's permissions (permissions.ts reads each venue's report). */
const KEY_PERMISSION_EXCHANGES = new Set(['binance', 'bybit', 'okx']);

/**
 * Exchanges whose private order stream we follow: Binance's WebSocket API user data stream
 * (user-data/), Bybit's and OKX's private streams (venue-streams/).
 */
const ORDER_STREAM_EXCHANGES = new Set<string>(['binance', ...VENUE_ORDER_STREAMS]);

const capabilitiesById = new Map<string, ExchangeCapabilities>();

/**
 * What an exchange can do for us, from ccxt's `has` plus what we know about key permissions. Worked
 * out once per exchange and process: a ccxt instance costs milliseconds of CPU to build.
 */
export const exchangeCapabilities = (id: string): ExchangeCapabilities => {
  let caps = capabilitiesById.get(id);
  if (!caps) {
    caps = probeCapabilities(id);
    capabilitiesById.set(id, caps);
  }
  return caps;
};

const probeCapabilities = (id: string): ExchangeCapabilities => {
  const probe = new (exchangeClass(id))();
  const has = (name: string) => probe.has[name] === true || probe.has[name] === 'emulated';
  const caps = {
    exchange: id,
    spot: has('spot'),
    createOrder: has('createOrder'),
    cancelOrder: has('cancelOrder'),
    fetchOrder: has('fetchOrder'),
    fetchOpenOrders: has('fetchOpenOrders'),
    fetchMyTrades: has('fetchMyTrades'),
    fetchBalance: has('fetchBalance'),
    fetchTicker: has('fetchTicker'),
    fetchTickers: has('fetchTickers'),
    marketBuyWithCost: has('createMarketBuyOrderWithCost'),
    keyPermissions: KEY_PERMISSION_EXCHANGES.has(id),
    testnet: probe.urls.test !== undefined,
    orderStream: ORDER_STREAM_EXCHANGES.has(id),
  };
  const needed = [
    caps.spot,
    caps.createOrder,
    caps.cancelOrder,
    caps.fetchOrder,
    caps.fetchOpenOrders,
    caps.fetchMyTrades,
    caps.fetchBalance,
    caps.fetchTicker,
    caps.keyPermissions,
  ];
  return { ...caps, supported: needed.every(Boolean) };
};

/**
 * Binance refuses a signed request whose timestamp is more than 1000 ms ahead of its clock or
 * older than recvWindow (-1021, Binance spot API docs, rest-api.md#timing-security); nothing was
 * executed. The offset measured at start goes stale when this host's clock steps, so any signed
 * call answered -1021 re-measures it (GET /api/v3/time) and is sent once more, newly signed.
 */
const remeasureClockOnRefusal = (exchange: Exchange): void => {
  const requestOnce = exchange.request.bind(exchange);
  exchange.request = (async (...args: Parameters<Exchange['request']>) => {
    try {
      return await requestOnce(...args);
    } catch (error) {
      if (classifyFailure(error).kind !== 'clock') throw error;
      await exchange.loadTimeDifference();
      return requestOnce(...args);
    }
  }) as Exchange['request'];
};

/**
 * Sends from one local address (EGRESS_BIND_ADDRESS): a host with several public IPs, or two
 * loopback addresses standing for two IPs in tests. ccxt builds its keep-alive undici Agent from
 * these options on its first request.
 */
const bindLocalAddress = (exchange: Exchange, localAddress: string) => {
  const raw = exchange as unknown as { getDispatcherOptions: (plain?: boolean) => Record<string, unknown> };
  const own = raw.getDispatcherOptions.bind(exchange);
  // undici takes it at the top level of the Agent's options (inside `connect` it is ignored).
  raw.getDispatcherOptions = (plain = false) => ({ ...own(plain), localAddress });
};

/**
 * One ccxt instance per API key (ccxt's rate limiter is per instance, and so is Binance's limit per
 * key). Only the URLs differ between live, testnet and sandbox; every call takes the same path.
 * The venue's markets are shared between the instances of a process (`shareMarkets`); a -1021
 * re-measures the clock offset and resends (`remeasureClockOnRefusal`).
 */
export const createCcxtExchange = (options: ExchangeClientOptions, pro = false): Exchange => {
  const Class = exchangeClass(options.exchange, pro);
  const exchange = new Class({
    apiKey: options.apiKey,
    secret: options.secret,
    // OKX's passphrase (ccxt calls the third credential `password`).
    ...(options.password ? { password: options.password } : {}),
    enableRateLimit: true,
    // The local sandbox has no request-weight budget: the limiter stays on (same code path) with
    // a tenth of Binance's pacing, so demos and tests are not throttled to Binance's weights. It
    // must be given here: ccxt builds its token bucket from rateLimit in the constructor.
    ...(options.mode === 'sandbox' ? { rateLimit: 5 } : {}),
    timeout: options.timeoutMs ?? 10_000,
    options: {
      fetchCurrencies: false,
      // Spot only: no futures/margin listings during loadMarkets (they are other hosts and other keys).
      fetchMarkets: { types: ['spot'] },
      fetchMargins: false,
      // Binance rejects a timestamp outside recvWindow (-1021); measure the clock offset on loadMarkets.
      adjustForTimeDifference: true,
      recvWindow: options.recvWindowMs ?? 5000,
      defaultType: 'spot',
    },
  });
  shareMarkets(
    exchange,
    `${options.exchange}:${options.mode}:${options.mode === 'sandbox' ? options.sandboxUrl : ''}`,
    options.marketsTtlMs,
  );
  remeasureClockOnRefusal(exchange);
  const spec = venueSpec(options.exchange);
  if (options.budget && spec) {
    // One budget per egress IP for every key and process (docs/grid.md#request-budget).
    attachBudget(exchange, options.budget, {
      spec,
      venue: `${options.exchange}:${options.mode}`,
      ...(options.apiKey
        ? { account: createHash('sha256').update(options.apiKey).digest('hex').slice(0, 24) }
        : {}),
    });
  }
  if (options.localAddress) bindLocalAddress(exchange, options.localAddress);
  // Decimal strings instead of floats in every parsed structure: money never becomes a JS number.
  exchange.number = String as unknown as Exchange['number'];
  if (options.mode === 'testnet') {
    if (exchange.urls.test === undefined) {
      throw new ExchangeError('EXCHANGE_UNSUPPORTED', `${options.exchange} has no testnet in ccxt`);
    }
    exchange.setSandboxMode(true);
  }
  if (options.mode === 'sandbox') {
    if (!options.sandboxUrl) throw new ExchangeError('EXCHANGE_UNSUPPORTED', 'mode sandbox needs sandboxUrl');
    pointAtSandbox(exchange, options.exchange, options.sandboxUrl, pro);
  }
  return exchange;
};
