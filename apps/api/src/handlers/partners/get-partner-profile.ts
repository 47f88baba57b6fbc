import { getPartnerProfile } from '@gridbot/contracts';
import { getDownlinePartner } from '@gridbot/services';
import { handle } from '../../handle';

export const getPartnerProfileHandler = handle(getPartnerProfile, (ctx, { query, session }) =>
  getDownlinePartner(ctx, { userId: session.userId, requiredUid: query.required_id }),
);
