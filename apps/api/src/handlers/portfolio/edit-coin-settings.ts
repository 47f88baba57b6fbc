import { editCoinSettings } from '@gridbot/contracts';
import { editPortfolioCoinSettings } from '@gridbot/services';
import { handle } from '../../handle';

export const editCoinSettingsHandler = handle(editCoinSettings, (ctx, { body, session }) => {
  const { coin, exchange, preview, ...settings } = body;
  return editPortfolioCoinSettings(ctx, { userId: session.userId, coin, exchange, preview, settings });
});
