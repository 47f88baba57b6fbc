import type { Session } from '@gridbot/contracts';
import type { PrismaClient, User } from '@gridbot/db';
import { getUserLanguage } from '../config/user-config';
import type { DataContext, ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { type TelegramUser, verifyInitData } from './init-data';
import { newReferralCode, productLanguageFor, referralCodeFrom } from './referral-code';

export type SignInInput = {
  /** Raw initData (`_auth`). */
  initData: string | undefined;
  /** The user id the client claims; must match the signed one when given. */
  claimedUserId?: number | bigint | string | undefined;
};

/**
 * Sign-in and registration (docs/product.md#behaviour, §8; docs/security.md#sign-in). Users are matched by Telegram
 * id. A new Telegram id is registered only with a valid `ref_<code>` start parameter; a username
 * is required. Returns the session as both sign-in contracts carry it.
 */
export const signIn = async (ctx: ServiceContext, input: SignInInput): Promise<Session> => {
  const now = ctx.clock.now();
  const launch = verifyInitData(input.initData, ctx.auth.botToken, ctx.env.INIT_DATA_MAX_AGE_S, now);
  if (input.claimedUserId !== undefined && BigInt(input.claimedUserId) !== launch.user.id) {
    throw new AppError('INIT_DATA_INVALID');
  }
  const { user } = await enterTelegramUser(ctx, {
    telegramUser: launch.user,
    startParam: launch.startParam,
    signedAt: launch.authDate,
    startsSession: true,
  });

  const language = await getUserLanguage(ctx, { userId: user.id });
  const { token, expiresAt } = await ctx.auth.tokens.issue({ userId: user.id, uid: user.uid }, now);
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    user: {
      uid: user.uid,
      telegramId: user.telegramId.toString(),
      username: user.username,
      firstName: user.firstName,
      lastName: user.lastName,
      language,
      referralCode: user.referralCode,
      createdAt: user.createdAt.toISOString(),
    },
  };
};

export type EnterTelegramUserInput = {
  /** The Telegram user as Telegram signed it (launch data) or delivered it (a bot update). */
  telegramUser: TelegramUser;
  /** The mini app's `start_param` or the bot's `/start` payload: `ref_<code>` registers. */
  startParam: string | null;
  /**
   * When Telegram signed or sent these names: the launch data's `auth_date`, the bot message's
   * `date`. Names older than the ones stored are not written back.
   */
  signedAt: Date;
  /** The mini app's sign-in: launch data from before "end all sessions" is refused. */
  startsSession?: boolean;
};

/**
 * The one way in for a Telegram user, shared by the mini app's sign-in and the bot's `/start`
 * (docs/security.md#sign-in, docs/bonuses.md#registration): a username is required; a known
 * Telegram id keeps its account and sponsor (names refreshed); a new one is registered only through
 * a valid referral code, whose owner becomes the sponsor for good. A blocked account is refused
 * (ACCOUNT_BLOCKED); a new session from launch data signed before the account's sessions were
 * ended is INIT_DATA_INVALID (only reopening the mini app helps).
 */
export const enterTelegramUser = async (
  ctx: DataContext,
  input: EnterTelegramUserInput,
): Promise<{ user: User; registered: boolean }> => {
  const tg = input.telegramUser;
  const username = tg.username;
  if (!username) throw new AppError('NO_NICKNAME');
  const existing = await ctx.prisma.user.findUnique({ where: { telegramId: tg.id } });
  if (existing) {
    if (existing.blockedAt) throw new AppError('ACCOUNT_BLOCKED');
    const endedAt = existing.sessionsValidFrom;
    if (input.startsSession && endedAt && input.signedAt.getTime() < endedAt.getTime()) {
      throw new AppError('INIT_DATA_INVALID');
    }
    return {
      user: await refreshProfile(ctx.prisma, existing, tg, username, input.signedAt),
      registered: false,
    };
  }
  return register(ctx.prisma, tg, username, input.startParam, input.signedAt);
};

/**
 * Keeps names in step with Telegram. Only names signed after the stored ones count
 * (`username_signed_at`): launch data from before a rename, replayed within its 24 hours, cannot
 * write the old username back. The signed username is the user's now (Telegram usernames are
 * unique), so another account still recorded under it is stale: it gives the name up (its key is
 * parked until its owner signs in with their current one) instead of locking this user out.
 */
const refreshProfile = async (
  prisma: PrismaClient,
  user: User,
  tg: TelegramUser,
  username: string,
  signedAt: Date,
): Promise<User> => {
  if (user.usernameSignedAt && signedAt.getTime() <= user.usernameSignedAt.getTime()) return user;
  const usernameKey = username.toLowerCase();
  if (usernameKey !== user.usernameKey) {
    const holder = await prisma.user.findUnique({ where: { usernameKey } });
    if (holder && holder.id !== user.id) {
      await prisma.user.update({ where: { id: holder.id }, data: { usernameKey: `~stale:${holder.id}` } });
    }
  }
  const changed =
    usernameKey !== user.usernameKey ||
    username !== user.username ||
    tg.firstName !== user.firstName ||
    tg.lastName !== user.lastName ||
    tg.languageCode !== user.languageCode;
  if (!changed) return user;
  return prisma.user.update({
    where: { id: user.id },
    data: {
      username,
      usernameKey,
      firstName: tg.firstName,
      lastName: tg.lastName,
      languageCode: tg.languageCode,
      usernameSignedAt: signedAt,
    },
  });
};

const register = async (
  prisma: PrismaClient,
  tg: TelegramUser,
  username: string,
  startParam: string | null,
  signedAt: Date,
): Promise<{ user: User; registered: boolean }> => {
  const code = referralCodeFrom(startParam);
  if (!code) throw new AppError('NO_USER');
  const sponsor = await prisma.user.findUnique({ where: { referralCode: code } });
  if (!sponsor) throw new AppError('REFERRAL_CODE_UNKNOWN');
  const usernameKey = username.toLowerCase();
  const holder = await prisma.user.findUnique({ where: { usernameKey } });
  // A concurrent first sign-in of the same person may have registered them a moment ago.
  if (holder) {
    if (holder.telegramId === tg.id) return { user: holder, registered: false };
    throw new AppError('NO_NICKNAME_IN_DB');
  }

  try {
    const user = await prisma.user.create({
      data: {
        telegramId: tg.id,
        username,
        usernameKey,
        firstName: tg.firstName,
        lastName: tg.lastName,
        languageCode: tg.languageCode,
        usernameSignedAt: signedAt,
        referralCode: newReferralCode(),
        sponsorId: sponsor.id,
        configs: { create: { name: 'localization', value: productLanguageFor(tg.languageCode) } },
      },
    });
    return { user, registered: true };
  } catch (error) {
    // Two sign-ins of the same new user race: the loser reads the winner's row.
    if (isUniqueViolation(error)) {
      const winner = await prisma.user.findUnique({ where: { telegramId: tg.id } });
      if (winner) return { user: winner, registered: false };
      // The username was taken by someone else in the meantime.
      throw new AppError('NO_NICKNAME_IN_DB');
    }
    throw error;
  }
};

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === 'P2002';
