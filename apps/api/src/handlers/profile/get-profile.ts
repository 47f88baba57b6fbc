import { getProfile } from '@gridbot/contracts';
import { getUserProfile } from '@gridbot/services';
import { handle } from '../../handle';

export const getProfileHandler = handle(getProfile, (ctx, { session }) =>
  getUserProfile(ctx, { userId: session.userId }),
);
