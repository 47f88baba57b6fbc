import { saveApiKey } from '@gridbot/contracts';
import { saveExchangeKeys } from '@gridbot/services';
import { handle } from '../../handle';

export const saveApiKeyHandler = handle(saveApiKey, (ctx, { body, session }) =>
  saveExchangeKeys(ctx, {
    userId: session.userId,
    exchange: body.exchange,
    // The body's formats (KEY_FORMATS) read the keys trimmed: they are saved so.
    apiKey: body.apiKey.trim(),
    secretKey: body.secretKey.trim(),
    ...(body.passphrase !== undefined ? { passphrase: body.passphrase } : {}),
    confirmAccountSwitch: body.confirmAccountSwitch,
  }),
);
