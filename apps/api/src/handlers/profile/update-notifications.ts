import { updateNotifications } from '@gridbot/contracts';
import { updateNotificationSettings } from '@gridbot/services';
import { handle } from '../../handle';

export const updateNotificationsHandler = handle(updateNotifications, (ctx, { body, session }) =>
  updateNotificationSettings(ctx, { userId: session.userId, changes: body }),
);
