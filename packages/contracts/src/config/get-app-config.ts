import { z } from 'zod';
import { defineEndpoint } from '../core';

export const ZAppConfig = z.object({
  supportUrl: z.url().describe("the installation's support contact (SUPPORT_URL)"),
});
export type AppConfig = z.output<typeof ZAppConfig>;

/**
 * The installation's settings the app shows, before sign-in too (a refused sign-in offers the
 * support link): no user data, so no token (docs/product.md#calls).
 */
export const getAppConfig = defineEndpoint({
  id: 'config.getAppConfig',
  method: 'GET',
  path: '/config',
  summary: "The installation's public settings: the support link",
  tags: ['config'],
  auth: false,
  response: ZAppConfig,
  errors: { 429: 'too many requests' },
});
