import { defineEndpoint } from '../core';
import { documented } from '../errors';
import { ZNotificationSettings } from './notification-settings';

/** Changes the given notification switches (a partial body; `{}` just reads them). */
export const updateNotifications = defineEndpoint({
  id: 'profile.updateNotifications',
  method: 'POST',
  path: '/profile/notificate',
  summary: 'Notification settings',
  tags: ['profile'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1000 },
  body: ZNotificationSettings.partial().strict().default({}),
  response: ZNotificationSettings,
  invalidates: ['profile.getProfile'],
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    429: documented('RATE_LIMITED'),
  },
});
