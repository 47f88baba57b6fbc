import { signInTelegram } from '@gridbot/contracts';
import { signIn } from '@gridbot/services';
import { handle } from '../../handle';

export const signInTelegramHandler = handle(signInTelegram, async (ctx, { body }) => ({
  data: await signIn(ctx, { initData: body.initData }),
}));
