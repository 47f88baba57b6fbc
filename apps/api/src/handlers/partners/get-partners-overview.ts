import { getPartnersOverview } from '@gridbot/contracts';
import { getPartnerOverview } from '@gridbot/services';
import { handle } from '../../handle';

export const getPartnersOverviewHandler = handle(getPartnersOverview, (ctx, { session }) =>
  getPartnerOverview(ctx, { userId: session.userId }),
);
