import { getDepositAddress } from '@gridbot/contracts';
import { getUserDepositAddress } from '@gridbot/services';
import { handle } from '../../handle';

export const getDepositAddressHandler = handle(getDepositAddress, (ctx, { session }) =>
  getUserDepositAddress(ctx, { userId: session.userId }),
);
