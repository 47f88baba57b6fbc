import { z } from 'zod';
import { defineEndpoint, ZIsoDateTime } from '../core';
import { ZSessionUser } from './login';

/** Token-based sign-in (docs/product.md#calls): the same initData check, the token comes back in `data.token`. */
export const signInTelegram = defineEndpoint({
  id: 'auth.signInTelegram',
  method: 'POST',
  path: '/auth/telegram',
  summary: 'Sign in with raw initData; token in data.token',
  tags: ['auth'],
  auth: false,
  body: z.object({ initData: z.string().max(8192).default('').describe('raw signed initData') }).prefault({}),
  response: z.object({
    data: z.object({ token: z.string(), expiresAt: ZIsoDateTime, user: ZSessionUser }),
  }),
  errors: {
    400: "initData missing: 'initData отсутствует'",
    401: 'initData invalid, tampered or expired',
    403: "'No User' | 'No Nickname' | 'No Nickname in DB'",
    429: 'too many requests',
  },
});
