import { login, signInTelegram } from '@gridbot/contracts';
import type { User } from '@gridbot/db';
import { signIn } from '@gridbot/services';
import type { FastifyInstance } from 'fastify';
import { handle } from '../../handle';

const sessionUser = (user: User, language: 'en' | 'ru' | 'cn') => ({
  uid: user.uid,
  telegramId: user.telegramId.toString(),
  username: user.username,
  firstName: user.firstName,
  lastName: user.lastName,
  language,
  referralCode: user.referralCode,
  createdAt: user.createdAt.toISOString(),
});

const depsOf = (app: FastifyInstance) => ({
  prisma: app.deps.prisma,
  tokens: app.deps.tokens,
  botToken: app.deps.botToken,
  initDataMaxAgeS: app.deps.env.INIT_DATA_MAX_AGE_S,
});

export const loginHandler = handle(login, async ({ body }, request) => {
  const result = await signIn(depsOf(request.server), { initData: body._auth, claimedUserId: body.user_id });
  return {
    token: result.token,
    expiresAt: result.expiresAt.toISOString(),
    user: sessionUser(result.user, result.language),
  };
});

export const signInTelegramHandler = handle(signInTelegram, async ({ body }, request) => {
  const result = await signIn(depsOf(request.server), { initData: body.initData });
  return {
    data: {
      token: result.token,
      expiresAt: result.expiresAt.toISOString(),
      user: sessionUser(result.user, result.language),
    },
  };
});
