import { z } from 'zod';
import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { ZApiKeyText, ZApiKeyView, ZExchange } from './exchange-keys';

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
  body: z.object({
    exchange: ZExchange.default('binance'),
    apiKey: ZApiKeyText,
    secretKey: ZApiKeyText,
    confirmAccountSwitch: z
      .boolean()
      .default(false)
      .describe('save keys of another exchange account although coins have open deals on the saved one'),
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
      'API_KEY_WITHDRAW_ENABLED',
      'API_KEY_IP_NOT_ALLOWED',
      'API_KEY_TRADING_EXPIRED',
    ),
    502: documented('EXCHANGE_UNAVAILABLE'),
  },
});
