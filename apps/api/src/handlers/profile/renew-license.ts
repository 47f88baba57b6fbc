import { renewLicense } from '@gridbot/contracts';
import { renewUserLicense } from '@gridbot/services';
import { handle } from '../../handle';

export const renewLicenseHandler = handle(renewLicense, (ctx, { headers, session }) =>
  renewUserLicense(ctx, { userId: session.userId, idempotencyKey: headers['idempotency-key'] }),
);
