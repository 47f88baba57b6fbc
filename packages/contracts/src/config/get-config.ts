import { z } from 'zod';
import { defineEndpoint } from '../core';

/** Config names a user may read and write, with the values each accepts. */
export const ZConfigName = z.enum(['localization', 'notifications', 'theme']).describe('config key');
export type ConfigName = z.infer<typeof ZConfigName>;

export const ZConfigValue = z.object({
  name: ZConfigName,
  /** The stored value; null when never set (the client then uses its default). */
  data: z.string().nullable(),
});
export type ConfigValue = z.output<typeof ZConfigValue>;

export const getConfig = defineEndpoint({
  id: 'config.get',
  method: 'GET',
  path: '/home/config/:name/get',
  summary: 'Read one of the user config values',
  tags: ['config'],
  auth: true,
  params: z.object({ name: ZConfigName }),
  response: ZConfigValue,
  errors: { 400: 'unknown config name', 401: 'not signed in' },
});
