import { updateWithdrawAddress } from '@gridbot/contracts';
import { changeWithdrawAddress } from '@gridbot/services';
import { handle } from '../../handle';

export const updateWithdrawAddressHandler = handle(updateWithdrawAddress, (ctx, { query, session }) =>
  changeWithdrawAddress(ctx, { userId: session.userId, address: query.address }),
);
