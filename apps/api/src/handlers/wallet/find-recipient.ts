import { findRecipient } from '@gridbot/contracts';
import { findTransferRecipient } from '@gridbot/services';
import { handle } from '../../handle';
import { withinRecipientBudget } from '../../plugins/external/rate-limit';

export const findRecipientHandler = handle(findRecipient, (ctx, { query, session }, request) =>
  withinRecipientBudget(request, 'lookup', () =>
    findTransferRecipient(ctx, { userId: session.userId, uid: query.uid }),
  ),
);
