import { login } from '@gridbot/contracts';
import { signIn } from '@gridbot/services';
import { handle } from '../../handle';

export const loginHandler = handle(login, (ctx, { body }) =>
  signIn(ctx, { initData: body._auth, claimedUserId: body.user_id }),
);
