import { resetCoinSettings } from '@gridbot/contracts';
import { resetPortfolioCoinSettings } from '@gridbot/services';
import { handle } from '../../handle';

export const resetCoinSettingsHandler = handle(resetCoinSettings, (ctx, { body, session }) =>
  resetPortfolioCoinSettings(ctx, { userId: session.userId, coin: body.coin, exchange: body.exchange }),
);
