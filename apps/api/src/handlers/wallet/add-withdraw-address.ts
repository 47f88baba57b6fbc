import { addWithdrawAddress } from '@gridbot/contracts';
import { saveWithdrawAddress } from '@gridbot/services';
import { handle } from '../../handle';

export const addWithdrawAddressHandler = handle(addWithdrawAddress, (ctx, { query, session }) =>
  saveWithdrawAddress(ctx, { userId: session.userId, address: query.address }),
);
