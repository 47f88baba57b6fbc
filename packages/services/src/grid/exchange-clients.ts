import type { PrismaClient } from '@gridbot/db';
import {
  type ConnectionLimit,
  type ConnectionLimiter,
  createExchangeClient,
  createMemoryConnectionLimiter,
  createUserDataStreams,
  type ExchangeClient,
  type ExchangeClientOptions,
  type ExchangeMode,
  USER_STREAM_CONNECTION_BUDGET,
  type UserDataStreams,
  type UserDataStreamsOptions,
  type VenueBudget,
} from '@gridbot/exchange';
import { registerLogSecret } from '@gridbot/runtime';
import type { SecretBox } from '../crypto/secret-box';

export type ExchangeClientsOptions = {
  prisma: PrismaClient;
  secretBox: SecretBox;
  /** Base URL of the sandbox exchange (its Binance dialect), for accounts in mode `sandbox`. */
  sandboxUrl?: string | undefined;
  /** Base URLs of the sandbox's other dialects by venue (`bybit`, `okx`), for their accounts in mode `sandbox`. */
  sandboxDialectUrls?: Readonly<Record<string, string>> | undefined;
  /** Binance recvWindow: also how long an order of unknown fate is waited for before a lookup. */
  recvWindowMs?: number | undefined;
  /**
   * The request budget of this process's egress IP, spent by every client it builds: accounts'
   * keys, keys being checked and public prices alike (docs/grid.md#request-budget).
   */
  budget?: VenueBudget | undefined;
  /** The local address exchange requests leave from (EGRESS_BIND_ADDRESS). */
  localAddress?: string | undefined;
  /**
   * Paces the private streams' connection attempts to a venue URL within `budget` (every venue
   * counts them per IP: Binance's user data connections, Bybit's and OKX's one per account): Redis
   * when distributed (createRedisConnectionLimiter), this process's memory by default.
   */
  connectionLimiterFor?: ((url: string, budget: ConnectionLimit) => ConnectionLimiter) | undefined;
  /** How the user data connections are run (subscriptions per connection, life, backoff). */
  userDataStreams?: Omit<UserDataStreamsOptions, 'url' | 'limiter'> | undefined;
  /** How Bybit's and OKX's private streams (a connection per account) time their heartbeat and silence. */
  privateStreamTiming?: ExchangeClientOptions['privateStreamTiming'] | undefined;
  /** How long markets (filters, status) are used before they are fetched again (default 5 min). */
  marketsTtlMs?: number | undefined;
};

/** Additional data binding an encrypted secret to its owner and exchange. */
export const secretAad = (userId: number, exchange: string) => `${userId}:${exchange}`;

/** The same for a passphrase (OKX), so a sealed secret can never be opened as one or the reverse. */
export const passphraseAad = (userId: number, exchange: string) => `${userId}:${exchange}:passphrase`;

/**
 * A user's keys, from the moment this process holds them in clear: no log line carries them, even
 * inside an exchange's error message (docs/security.md#logs).
 */
const keepOutOfLogs = (keys: { apiKey: string; secret: string; password?: string | undefined }) => {
  registerLogSecret(keys.apiKey);
  registerLogSecret(keys.secret);
  if (keys.password) registerLogSecret(keys.password);
};

/**
 * One ccxt client per exchange account (its markets live in it), rebuilt when the account's keys
 * change; all of them spend one request budget per egress IP. Secrets are decrypted only here,
 * never logged.
 */
export const createExchangeClients = (options: ExchangeClientsOptions) => {
  const egress = {
    ...(options.budget ? { budget: options.budget } : {}),
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  };
  const cache = new Map<number, { version: number; client: ExchangeClient }>();
  // One set of user data connections per venue URL for the whole process: every account's stream
  // is a subscription on them (docs/grid.md#triggers).
  const streams = new Map<string, UserDataStreams>();
  const userDataStreams = (url: string): UserDataStreams => {
    let found = streams.get(url);
    if (!found) {
      found = createUserDataStreams({
        ...options.userDataStreams,
        url,
        limiter:
          options.connectionLimiterFor?.(url, USER_STREAM_CONNECTION_BUDGET) ??
          createMemoryConnectionLimiter(USER_STREAM_CONNECTION_BUDGET),
      });
      streams.set(url, found);
    }
    return found;
  };
  // Bybit's and OKX's streams are a connection per account: one limiter per venue URL for all of them.
  const privateLimiters = new Map<string, ConnectionLimiter>();
  const connectionLimiterFor = options.connectionLimiterFor;
  const privateStreamLimiter = connectionLimiterFor
    ? (url: string, budget: ConnectionLimit): ConnectionLimiter => {
        let found = privateLimiters.get(url);
        if (!found) {
          found = connectionLimiterFor(url, budget);
          privateLimiters.set(url, found);
        }
        return found;
      }
    : undefined;
  const publicClients = new Map<string, ExchangeClient>();
  /** The sandbox dialect of `exchange` (mode `sandbox`): Binance's on the main URL, the others on their own. */
  const sandboxFor = (exchange: string): { sandboxUrl?: string } => {
    const url = exchange === 'binance' ? options.sandboxUrl : options.sandboxDialectUrls?.[exchange];
    return url ? { sandboxUrl: url } : {};
  };
  return {
    /** The sandbox exchange's base URL (mode `sandbox`), e.g. to ask it for our address. */
    sandboxUrl: options.sandboxUrl,
    forAccount: async (exchangeAccountId: number): Promise<ExchangeClient> => {
      const account = await options.prisma.exchangeAccount.findUniqueOrThrow({
        where: { id: exchangeAccountId },
      });
      // The keys' save time, not updatedAt: a key check writing its result keeps the client.
      const version = account.savedAt.getTime();
      const cached = cache.get(exchangeAccountId);
      if (cached && cached.version === version) return cached.client;
      const secret = options.secretBox.open(
        { cipher: account.secretCipher, iv: account.secretIv, keyId: account.keyId },
        secretAad(account.userId, account.exchange),
      );
      const password =
        account.passphraseCipher && account.passphraseIv
          ? options.secretBox.open(
              { cipher: account.passphraseCipher, iv: account.passphraseIv, keyId: account.keyId },
              passphraseAad(account.userId, account.exchange),
            )
          : undefined;
      keepOutOfLogs({ apiKey: account.apiKey, secret, password });
      const client = createExchangeClient({
        exchange: account.exchange,
        mode: account.mode as ExchangeMode,
        apiKey: account.apiKey,
        secret,
        ...(password ? { password } : {}),
        ...sandboxFor(account.exchange),
        ...(options.recvWindowMs ? { recvWindowMs: options.recvWindowMs } : {}),
        ...egress,
        userDataStreams,
        ...(privateStreamLimiter ? { privateStreamLimiter } : {}),
        ...(options.privateStreamTiming ? { privateStreamTiming: options.privateStreamTiming } : {}),
        ...(options.marketsTtlMs ? { marketsTtlMs: options.marketsTtlMs } : {}),
      });
      cache.set(exchangeAccountId, { version, client });
      return client;
    },
    /**
     * A one-off client for keys that are not stored yet (checked before they are saved). Not
     * cached; its requests spend the IP's budget like every other.
     */
    forKeys: (keys: {
      exchange: string;
      mode: ExchangeMode;
      apiKey: string;
      secret: string;
      /** The venue's third credential (OKX's passphrase). */
      password?: string | undefined;
    }): ExchangeClient => {
      keepOutOfLogs(keys);
      const { password, ...rest } = keys;
      return createExchangeClient({
        ...rest,
        ...(password ? { password } : {}),
        ...sandboxFor(keys.exchange),
        ...(options.recvWindowMs ? { recvWindowMs: options.recvWindowMs } : {}),
        ...egress,
      });
    },
    /** A key-less client for public prices of a venue (`<exchange>:<mode>`). */
    forVenue: (venue: string): ExchangeClient => {
      const cached = publicClients.get(venue);
      if (cached) return cached;
      const [exchange = 'binance', mode = 'live'] = venue.split(':');
      const client = createExchangeClient({
        exchange,
        mode: mode as ExchangeMode,
        apiKey: '',
        secret: '',
        ...sandboxFor(exchange),
        ...egress,
      });
      publicClients.set(venue, client);
      return client;
    },
    /** The process's user data connections per venue URL (tests and the operator read them). */
    userDataConnections: () => [...streams].map(([url, s]) => ({ url, connections: s.connections() })),
    /** Closes the user data connections (a stopping process). */
    closeUserDataStreams: async () => {
      await Promise.all([...streams.values()].map((s) => s.close()));
      streams.clear();
    },
  };
};

export type ExchangeClients = ReturnType<typeof createExchangeClients>;
