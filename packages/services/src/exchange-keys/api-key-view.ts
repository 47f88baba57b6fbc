import { type Exchange, ZExchange } from '@gridbot/contracts';
import type { ExchangeAccount } from '@gridbot/db';

/** Saved keys as the user sees them back: masked, never the secret (docs/security.md). */
export type ApiKeyView = {
  exchange: Exchange;
  apiKeyMasked: string;
  secretKeyMasked: string;
  permissions: { spot: boolean; withdraw: boolean };
  ipRestricted: boolean | null;
  tradingExpiresAt: string | null;
  savedAt: string;
  lastCheckedAt: string | null;
  connected: boolean;
};

/** First and last four characters of the key (enough to recognise it, useless to anyone else). */
export const maskApiKey = (apiKey: string): string =>
  apiKey.length <= 8 ? '••••' : `${apiKey.slice(0, 4)}…${apiKey.slice(-4)}`;

/**
 * The secret is never decrypted for display: the last four characters shown are kept beside it at
 * save time, so a view never opens the secret box.
 */
export const maskSecret = (secretTail: string | null): string => `••••${secretTail ?? ''}`;

export const toApiKeyView = (account: ExchangeAccount): ApiKeyView => ({
  exchange: ZExchange.parse(account.exchange),
  apiKeyMasked: maskApiKey(account.apiKey),
  secretKeyMasked: maskSecret(account.secretTail),
  permissions: { spot: account.canTrade, withdraw: account.canWithdraw },
  ipRestricted: account.ipRestricted,
  tradingExpiresAt: account.tradingExpiresAt?.toISOString() ?? null,
  // When the keys were saved, not when the row last changed: every check writes the row too.
  savedAt: account.savedAt.toISOString(),
  lastCheckedAt: account.checkedAt?.toISOString() ?? null,
  connected: account.canTrade && !account.canWithdraw && account.checkProblem === null,
});
