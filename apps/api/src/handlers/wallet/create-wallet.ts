import { createWallet } from '@gridbot/contracts';
import { createUserWallet } from '@gridbot/services';
import { handle } from '../../handle';

export const createWalletHandler = handle(createWallet, (ctx, { session }) =>
  createUserWallet(ctx, { userId: session.userId }),
);
