import { saveApiKey } from '@gridbot/contracts';
import { saveExchangeKeys } from '@gridbot/services';
import { handle } from '../../handle';

export const saveApiKeyHandler = handle(saveApiKey, (ctx, { body, session }) =>
  saveExchangeKeys(ctx, {
    userId: session.userId,
    exchange: body.exchange,
    apiKey: body.apiKey,
    secretKey: body.secretKey,
    confirmAccountSwitch: body.confirmAccountSwitch,
  }),
);
