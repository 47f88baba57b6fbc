import { z } from 'zod';
import { defineEndpoint, ZDecimal, ZIsoDateTime } from '../core';
import { documented } from '../errors';
import { ZApiKeyView, ZExchange } from '../profile/exchange-keys';

/** Why the saved keys do not work; null when they do. Catalogue codes, plus NO_API_KEYS. */
export const ZKeyProblem = z.enum([
  'NO_API_KEYS',
  'API_KEY_INVALID',
  'API_KEY_NO_SPOT',
  'API_KEY_ACCOUNT_TYPE',
  'API_KEY_WITHDRAW_ENABLED',
  'API_KEY_IP_NOT_ALLOWED',
  'API_KEY_TRADING_EXPIRED',
  'EXCHANGE_UNAVAILABLE',
  'EXCHANGE_BALANCE_ZERO',
]);

/** Live check of the saved exchange keys (a call to the exchange, not a cached flag). */
export const checkKeys = defineEndpoint({
  id: 'home.checkKeys',
  method: 'GET',
  path: '/home/check_keys',
  summary: 'Check the saved exchange API keys',
  tags: ['home'],
  auth: true,
  query: z.object({
    exchange: ZExchange.optional().describe('whose keys to check (default: the keys saved first)'),
  }),
  response: z.object({
    hasKeys: z.boolean(),
    connected: z.boolean(),
    exchange: ZExchange.nullable().describe('whose keys were checked; null without keys (none asked)'),
    permissions: z.object({ spot: z.boolean(), withdraw: z.boolean() }).nullable(),
    usdtBalance: ZDecimal.nullable().describe('free USDT on the exchange account'),
    problem: ZKeyProblem.nullable(),
    checkedAt: ZIsoDateTime,
    key: ZApiKeyView.nullable().describe('the saved keys, masked, as of this check; null without keys'),
    egress: z
      .object({
        ips: z.array(z.string()),
        source: z.enum(['config', 'discovered', 'unknown']),
      })
      .describe("the installation's public IP address(es) to put on the key's trusted IPs"),
    accounts: z.array(ZExchange).describe('the exchanges the user has keys on, in the order saved'),
  }),
  errors: { 400: documented('VALIDATION'), 401: documented('UNAUTHORIZED') },
});
