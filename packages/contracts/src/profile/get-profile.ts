import { z } from 'zod';
import { defineEndpoint, ZIdInt, ZIsoDateTime, ZLanguage } from '../core';
import { documented } from '../errors';
import { ZPartnerRef } from '../partners/partner';
import { ZApiKeyView } from './exchange-keys';
import { ZLicense, ZLicenseOffer } from './license';
import { ZNotificationSettings } from './notification-settings';

/** Profile screen: identity, sponsor, licence with limits and offers, API keys (masked), notices. */
export const getProfile = defineEndpoint({
  id: 'profile.getProfile',
  method: 'POST',
  path: '/profile/',
  summary: 'User profile with licence, API keys and notification settings',
  tags: ['profile'],
  auth: true,
  response: z.object({
    uid: ZIdInt,
    telegramId: z.string(),
    username: z.string(),
    firstName: z.string(),
    lastName: z.string().nullable(),
    language: ZLanguage,
    registeredAt: ZIsoDateTime,
    sponsor: ZPartnerRef.nullable(),
    license: ZLicense,
    licenseOffers: z.array(ZLicenseOffer).describe('the whole ladder in rank order'),
    tradingPairs: z.object({ used: z.number().int(), limit: z.number().int() }),
    apiKey: ZApiKeyView.nullable().describe('the first keys saved; null until keys are saved'),
    apiKeys: z
      .array(ZApiKeyView)
      .describe('the keys of each exchange the user connected, in the order saved'),
    notifications: ZNotificationSettings,
  }),
  errors: { 401: documented('UNAUTHORIZED') },
});
