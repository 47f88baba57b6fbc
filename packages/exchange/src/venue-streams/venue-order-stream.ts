import { bybit, okx, type StreamRules, VENUE_TABLES } from '@gridbot/venues';
import type { Exchange, Order } from 'ccxt';
import { ExchangeError } from '../errors';
import { toOrder } from '../normalize';
import { type OrderStreamOptions, orderDelivery } from '../order-stream';
import { sandboxStreamUrl } from '../sandbox-urls';
import type { ExchangeMode } from '../types';
import {
  type ConnectionLimit,
  type ConnectionLimiter,
  createMemoryConnectionLimiter,
} from '../user-data/connection-limiter';
import { bybitOrderStream } from './bybit-order-stream';
import {
  followPrivateStream,
  type PrivateStreamDialect,
  type PrivateStreamTiming,
} from './follow-private-stream';
import { okxOrderStream } from './okx-order-stream';

/** The venues whose private order stream is one connection per account (Binance's is shared: user-data/). */
export const VENUE_ORDER_STREAMS = ['bybit', 'okx'] as const;

const STREAMS: Record<string, { hosts: { live: string; test: string }; path: string }> = {
  bybit: bybit.stream,
  okx: okx.stream,
};

/** The private stream's URL of a venue in a mode: the venue's host (testnet: its test host) or the sandbox's dialect. */
export const privateStreamUrl = (venue: string, mode: ExchangeMode, sandboxUrl?: string): string => {
  const stream = STREAMS[venue];
  if (!stream) throw new ExchangeError('EXCHANGE_UNSUPPORTED', `no private order stream for ${venue}`);
  if (mode !== 'sandbox')
    return `${mode === 'testnet' ? stream.hosts.test : stream.hosts.live}${stream.path}`;
  if (!sandboxUrl) throw new ExchangeError('EXCHANGE_UNSUPPORTED', 'mode sandbox needs sandboxUrl');
  return sandboxStreamUrl(sandboxUrl, stream.path);
};

/**
 * The connection attempts the engine allows itself on a venue: 80 % of its per-IP limit (Bybit 500
 * per 5 minutes, OKX 3 a second: docs/venues/bybit.md#user-data-stream,
 * docs/venues/okx.md#user-data-stream), over a window a tenth longer, as for Binance's
 * (USER_STREAM_CONNECTION_BUDGET): the rest is slack for attempts that land closer together at the
 * venue than they were granted here.
 */
export const privateStreamConnectionBudget = (rules: StreamRules): ConnectionLimit => ({
  attempts: Math.max(1, Math.floor(rules.connectionsPerWindow * 0.8)),
  windowMs: Math.round(rules.connectionWindowMs * 1.1),
});

const limiters = new Map<string, ConnectionLimiter>();

/**
 * The limiter of a venue's stream URL: the caller's (the installation's, `shared`) or one per URL in
 * this process, so every account's connection to the venue is paced together.
 */
const limiterFor = (
  venue: string,
  url: string,
  shared?: (url: string, budget: ConnectionLimit) => ConnectionLimiter,
): ConnectionLimiter => {
  const rules = VENUE_TABLES[venue]?.userStream;
  if (!rules) throw new ExchangeError('EXCHANGE_UNSUPPORTED', `no stream rules for ${venue}`);
  const budget = privateStreamConnectionBudget(rules);
  if (shared) return shared(url, budget);
  let limiter = limiters.get(url);
  if (!limiter) {
    limiter = createMemoryConnectionLimiter(budget);
    limiters.set(url, limiter);
  }
  return limiter;
};

export type VenueOrderStreamInput = {
  venue: string;
  mode: ExchangeMode;
  sandboxUrl?: string;
  apiKey: string;
  secret: string;
  /** OKX's passphrase. */
  password?: string;
  /** The venue's time now (ms): the login's timestamp is checked against it. */
  serverNow: () => Promise<number>;
  /** ccxt pro's class of the venue with its markets loaded: its `parseOrder` is what its watchOrders uses. */
  parser: () => Promise<Exchange>;
  /** The installation's limiter of the stream URL (ExchangeClientOptions.privateStreamLimiter). */
  limiter?: (url: string, budget: ConnectionLimit) => ConnectionLimiter;
  timing?: PrivateStreamTiming;
};

/**
 * Follows one account's orders on Bybit's or OKX's private stream (one connection per account)
 * until the returned function is called, with the contract of `OrderStreamOptions`: each order
 * pushed is parsed as ccxt pro's watchOrders parses it (`parseOrder`, with the venue's markets),
 * each state reported once, `onSubscribed` on every (re)subscription.
 */
export const followVenueOrderStream = (
  input: VenueOrderStreamInput,
  options: OrderStreamOptions,
): (() => Promise<void>) => {
  const url = privateStreamUrl(input.venue, input.mode, input.sandboxUrl);
  let parser: Exchange | undefined;
  const deliver = orderDelivery((raw) => {
    if (!parser) throw new ExchangeError('EXCHANGE_UNAVAILABLE', 'an order pushed before the markets loaded');
    return toOrder((parser as unknown as { parseOrder: (o: unknown) => Order }).parseOrder(raw));
  }, options);
  const credentials = { url, apiKey: input.apiKey, secret: input.secret, serverNow: input.serverNow };
  const dialect: PrivateStreamDialect =
    input.venue === 'okx'
      ? okxOrderStream({ ...credentials, passphrase: input.password ?? '' })
      : bybitOrderStream(credentials);
  // The parser's markets (exchange ids → our symbols) are loaded before each login.
  const withParser: PrivateStreamDialect = {
    ...dialect,
    login: async () => {
      parser ??= await input.parser();
      return dialect.login();
    },
  };
  return followPrivateStream(
    withParser,
    limiterFor(input.venue, url, input.limiter),
    deliver,
    options,
    input.timing,
  );
};
