import { getReferralLink } from '@gridbot/contracts';
import { getReferralLinks } from '@gridbot/services';
import { handle } from '../../handle';

export const getReferralLinkHandler = handle(getReferralLink, (ctx, { session }) =>
  getReferralLinks(ctx, { userId: session.userId }),
);
