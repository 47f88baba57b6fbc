import { updateLicense } from '@gridbot/contracts';
import { updateUserLicense } from '@gridbot/services';
import { handle } from '../../handle';

export const updateLicenseHandler = handle(updateLicense, (ctx, { body, headers, session }) =>
  updateUserLicense(ctx, {
    userId: session.userId,
    level: body.level,
    idempotencyKey: headers['idempotency-key'],
  }),
);
