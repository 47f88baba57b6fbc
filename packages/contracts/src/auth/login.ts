import { z } from 'zod';
import { defineEndpoint, ZIsoDateTime, ZLanguage } from '../core';

export const ZSessionUser = z.object({
  uid: z.number().int().describe('public user id (UID)'),
  telegramId: z.string().describe('Telegram user id as a string (64-bit)'),
  username: z.string(),
  firstName: z.string(),
  lastName: z.string().nullable(),
  language: ZLanguage,
  referralCode: z.string(),
  createdAt: ZIsoDateTime,
});

export const ZSession = z.object({
  token: z.string().describe('bearer JWT, valid 1 day'),
  expiresAt: ZIsoDateTime,
  user: ZSessionUser,
});
export type Session = z.output<typeof ZSession>;

/**
 * Sign-in from the mini app's launch data (docs/product.md#behaviour, §8). The server trusts only `_auth` (raw
 * initData, HMAC-checked); the other fields must agree with it.
 */
export const login = defineEndpoint({
  id: 'auth.login',
  method: 'POST',
  path: '/auth/login',
  summary: 'Sign in with Telegram launch data',
  tags: ['auth'],
  auth: false,
  body: z
    .object({
      // Telegram ids can exceed 2^53: a digit string is accepted too and compared exactly.
      user_id: z
        .union([z.string().regex(/^\d{1,20}$/), z.number().int().positive()])
        .optional()
        .describe('Telegram user id (must match the signed one)'),
      first_name: z.string().max(256).optional().default(''),
      last_name: z.string().max(256).optional().default(''),
      username: z.string().max(64).optional().default(''),
      _auth: z.string().max(8192).default('').describe('raw signed initData (empty → initData missing)'),
    })
    // A missing body is "initData missing", not a validation error.
    .prefault({}),
  response: ZSession,
  errors: {
    400: "initData missing: 'initData отсутствует'",
    401: 'initData invalid, tampered or expired',
    403: "'No User' | 'No Nickname' | 'No Nickname in DB'",
    429: 'too many requests',
  },
});
