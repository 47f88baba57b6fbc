import { getStructure } from '@gridbot/contracts';
import { getPartnerTree } from '@gridbot/services';
import { handle } from '../../handle';

export const getStructureHandler = handle(getStructure, (ctx, { query, body, session }) =>
  getPartnerTree(ctx, {
    userId: session.userId,
    uid: session.uid,
    requiredUid: query.required_id,
    bodyUid: body.user_id,
  }),
);
