import { findRecipient } from '@gridbot/contracts';
import { findTransferRecipient } from '@gridbot/services';
import { handle } from '../../handle';

export const findRecipientHandler = handle(findRecipient, (ctx, { query, session }) =>
  findTransferRecipient(ctx, { userId: session.userId, uid: query.uid }),
);
