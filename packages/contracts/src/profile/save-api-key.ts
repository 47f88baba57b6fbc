import { z } from 'zod';
import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { KEY_FORMATS, ZApiKeyView, ZExchange } from './exchange-keys';

/**
 * Saves (or replaces) the exchange API keys after checking them on the exchange: spot trading must
 * be enabled and withdrawals disabled. The secret is stored encrypted and never returned.
 */
export const saveApiKey = defineEndpoint({
  id: 'profile.saveApiKey',
  method: 'POST',
  path: '/profile/api_key',
  summary: 'Save exchange API keys',
  tags: ['profile'],
  auth: true,
  body: z
    .object({
      exchange: ZExchange.default('binance'),
      apiKey: z.string().max(200).describe("the API key, in the exchange's format (KEY_FORMATS)"),
      secretKey: z.string().max(200).describe("the secret key, in the exchange's format"),
      passphrase: z
        .string()
        .max(200)
        .optional()
        .describe("OKX only: the key's passphrase, chosen when the key was created"),
      confirmAccountSwitch: z
        .boolean()
        .default(false)
        .describe('save keys of another exchange account although coins have open deals on the saved one'),
    })
    // Each field by its exchange's own format (the handler saves them trimmed, as the formats read them).
    .superRefine((body, ctx) => {
      const formats = KEY_FORMATS[body.exchange];
      const check = (name: 'apiKey' | 'secretKey' | 'passphrase', schema: z.ZodType, value: unknown) => {
        const parsed = schema.safeParse(value);
        if (parsed.success) return;
        for (const issue of parsed.error.issues)
          ctx.addIssue({ ...issue, path: [name, ...issue.path] } as never);
      };
      check('apiKey', formats.apiKey, body.apiKey);
      check('secretKey', formats.secretKey, body.secretKey);
      if (formats.passphrase) check('passphrase', formats.passphrase, body.passphrase ?? '');
      else if (body.passphrase !== undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['passphrase'],
          message: `${body.exchange} keys have no passphrase`,
        });
      }
    }),
  response: ZApiKeyView,
  invalidates: ['profile.getProfile', 'home.getPanel', 'home.checkKeys', 'portfolio.listAddableCoins'],
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    409: documented('API_KEY_OTHER_ACCOUNT'),
    422: documented(
      'API_KEY_INVALID',
      'API_KEY_NO_SPOT',
      'API_KEY_ACCOUNT_TYPE',
      'API_KEY_WITHDRAW_ENABLED',
      'API_KEY_IP_NOT_ALLOWED',
      'API_KEY_TRADING_EXPIRED',
    ),
    502: documented('EXCHANGE_UNAVAILABLE'),
  },
});
