import type { PrismaClient } from '@gridbot/db';
import { createExchangeClient, type ExchangeClient, type ExchangeMode } from '@gridbot/exchange';
import { registerLogSecret } from '@gridbot/runtime';
import type { SecretBox } from '../crypto/secret-box';

export type ExchangeClientsOptions = {
  prisma: PrismaClient;
  secretBox: SecretBox;
  /** Base URL of the sandbox exchange, for accounts in mode `sandbox`. */
  sandboxUrl?: string | undefined;
  /** Binance recvWindow: also how long an order of unknown fate is waited for before a lookup. */
  recvWindowMs?: number | undefined;
  /** Shares each API key's request budget across processes (distributed mode: Redis). */
  pacerFor?: ((apiKeyId: string) => (costMs: number) => Promise<unknown>) | undefined;
};

/** Additional data binding an encrypted secret to its owner and exchange. */
export const secretAad = (userId: number, exchange: string) => `${userId}:${exchange}`;

/**
 * A user's keys, from the moment this process holds them in clear: no log line carries them, even
 * inside an exchange's error message (docs/security.md#logs).
 */
const keepOutOfLogs = (keys: { apiKey: string; secret: string }) => {
  registerLogSecret(keys.apiKey);
  registerLogSecret(keys.secret);
};

const pacerOf =
  (pacerFor: NonNullable<ExchangeClientsOptions['pacerFor']>, id: string) =>
  async (costMs: number): Promise<void> => {
    await pacerFor(id)(costMs);
  };

/**
 * One ccxt client per exchange account (its rate limiter and markets live in it), rebuilt when the
 * account's keys change. Secrets are decrypted only here, never logged.
 */
export const createExchangeClients = (options: ExchangeClientsOptions) => {
  const { pacerFor } = options;
  const cache = new Map<number, { version: number; client: ExchangeClient }>();
  const publicClients = new Map<string, ExchangeClient>();
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
      keepOutOfLogs({ apiKey: account.apiKey, secret });
      const client = createExchangeClient({
        exchange: account.exchange,
        mode: account.mode as ExchangeMode,
        apiKey: account.apiKey,
        secret,
        ...(options.sandboxUrl ? { sandboxUrl: options.sandboxUrl } : {}),
        ...(options.recvWindowMs ? { recvWindowMs: options.recvWindowMs } : {}),
        ...(pacerFor
          ? { pacer: pacerOf(pacerFor, `${account.exchange}:${account.mode}:${account.apiKey}`) }
          : {}),
      });
      cache.set(exchangeAccountId, { version, client });
      return client;
    },
    /**
     * A one-off client for keys that are not stored yet (checked before they are saved). Not
     * cached: its rate limiter lives only for the check.
     */
    forKeys: (keys: {
      exchange: string;
      mode: ExchangeMode;
      apiKey: string;
      secret: string;
    }): ExchangeClient => {
      keepOutOfLogs(keys);
      return createExchangeClient({
        ...keys,
        ...(options.sandboxUrl ? { sandboxUrl: options.sandboxUrl } : {}),
        ...(options.recvWindowMs ? { recvWindowMs: options.recvWindowMs } : {}),
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
        ...(options.sandboxUrl ? { sandboxUrl: options.sandboxUrl } : {}),
      });
      publicClients.set(venue, client);
      return client;
    },
  };
};

export type ExchangeClients = ReturnType<typeof createExchangeClients>;
