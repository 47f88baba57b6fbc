import { z } from 'zod';
import { defineEndpoint } from '../core';
import { type ConfigName, ZConfigName, ZConfigValue } from './get-config';

/**
 * Store a config value (`?data=`). Values are validated per name: `localization` is one of
 * en/ru/cn (case-insensitive, stored lower-cased), `notifications` on/off, `theme` auto/light/dark.
 */
export const setConfig = defineEndpoint({
  id: 'config.set',
  method: 'POST',
  path: '/home/config/:name/set',
  summary: 'Store one of the user config values',
  tags: ['config'],
  auth: true,
  params: z.object({ name: ZConfigName }),
  query: z.object({ data: z.string().min(1).max(64) }),
  response: ZConfigValue,
  invalidates: ['config.get'],
  errors: { 400: 'unknown config name or value not allowed for it', 401: 'not signed in' },
});

/** Allowed values per config name (lower-case); the server lower-cases before checking. */
export const configValues: Record<ConfigName, readonly string[]> = {
  localization: ['en', 'ru', 'cn'],
  notifications: ['on', 'off'],
  theme: ['auto', 'light', 'dark'],
};

/** Validates `?data=` for a config name: trimmed, lower-cased, then one of `configValues[name]`. */
export const configValueSchema = (name: ConfigName) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((value) => configValues[name].includes(value), {
      message: `must be one of ${configValues[name].join(', ')}`,
    });
