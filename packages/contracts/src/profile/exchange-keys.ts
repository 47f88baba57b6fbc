import { z } from 'zod';
import { ZIsoDateTime } from '../core';

/**
 * Exchanges a user can connect: Binance, Bybit and OKX spot (docs/venues/README.md; the sandbox
 * speaks each one's dialect). Extend additively.
 */
export const ZExchange = z.enum(['binance', 'bybit', 'okx']);
export type Exchange = z.output<typeof ZExchange>;

/** docs/product.md#validation text rules, which fit Binance keys: a string of 50–100 letters and digits. */
export const ZApiKeyText = z
  .string()
  .trim()
  .min(50, 'must be at least 50 characters')
  .max(100, 'must be at most 100 characters')
  .regex(/^[A-Za-z0-9]+$/, 'only letters and numbers');

/** Bybit's key and secret: letters and digits (docs/venues/bybit.md#keys; the venue table's keys.keyPattern). */
const ZBybitKeyText = z
  .string()
  .trim()
  .min(10, 'must be at least 10 characters')
  .max(64, 'must be at most 64 characters')
  .regex(/^[A-Za-z0-9]+$/, 'only letters and numbers');

/**
 * Each venue's key formats (docs/venues/*.md#keys, the same rules as the venue tables' `keys`, which
 * a test compares): Binance by the spec's text rule; Bybit letters and digits; OKX a UUID key, a
 * 32-hex-digit secret and the passphrase chosen when the key was made (printable, no spaces, ≤ 32).
 */
export const KEY_FORMATS = {
  binance: { apiKey: ZApiKeyText, secretKey: ZApiKeyText, passphrase: null },
  bybit: { apiKey: ZBybitKeyText, secretKey: ZBybitKeyText, passphrase: null },
  okx: {
    apiKey: z
      .string()
      .trim()
      .regex(
        /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/,
        'an OKX API key looks like 8-4-4-4-12 hexadecimal digits',
      ),
    secretKey: z
      .string()
      .trim()
      .regex(/^[0-9A-Fa-f]{32}$/, 'an OKX secret key is 32 hexadecimal digits'),
    passphrase: z
      .string()
      .min(1, 'enter the passphrase you chose when creating the key')
      .max(32, 'must be at most 32 characters')
      .regex(/^[\x21-\x7E]+$/, 'letters, digits and symbols, without spaces'),
  },
} as const satisfies Record<
  Exchange,
  { apiKey: z.ZodType<string>; secretKey: z.ZodType<string>; passphrase: z.ZodType<string> | null }
>;

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
