import { z } from 'zod';
import { ZIsoDateTime } from '../core';

/** Exchanges a user can connect. Binance spot (the sandbox speaks its dialect); extend additively. */
export const ZExchange = z.enum(['binance']);
export type Exchange = z.output<typeof ZExchange>;

/** docs/product.md#validation text rules, which fit Binance keys: a string of 50–100 letters and digits. */
export const ZApiKeyText = z
  .string()
  .trim()
  .min(50, 'must be at least 50 characters')
  .max(100, 'must be at most 100 characters')
  .regex(/^[A-Za-z0-9]+$/, 'only letters and numbers');

/** Saved keys as shown back: masked, never the secret (docs/security.md). */
export const ZApiKeyView = z.object({
  exchange: ZExchange,
  apiKeyMasked: z.string().describe('first 4 and last 4 characters, e.g. AbCd…WxYz'),
  secretKeyMasked: z.string().describe('last 4 characters only, e.g. ••••WxYz'),
  permissions: z.object({ spot: z.boolean(), withdraw: z.boolean() }),
  ipRestricted: z.boolean().nullable().describe('the key answers trusted IPs only; null when not known'),
  tradingExpiresAt: ZIsoDateTime.nullable().describe(
    'when Binance ends spot trading of a key without an IP restriction (30 days); null when it does not',
  ),
  savedAt: ZIsoDateTime,
  lastCheckedAt: ZIsoDateTime.nullable(),
  connected: z.boolean().describe('the last check succeeded'),
});
export type ApiKeyView = z.output<typeof ZApiKeyView>;
