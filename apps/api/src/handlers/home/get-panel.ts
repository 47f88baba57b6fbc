import { getPanel } from '@gridbot/contracts';
import { getPanel as panelOf } from '@gridbot/services';
import { handle } from '../../handle';

export const getPanelHandler = handle(getPanel, (ctx, { session }) =>
  panelOf(ctx, { userId: session.userId }),
);
