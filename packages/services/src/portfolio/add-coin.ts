import type { Exchange, PortfolioCoin } from '@gridbot/contracts';
import { Prisma } from '@gridbot/db';
import { DEFAULT_COIN_SETTINGS } from '@gridbot/domain';
import { recordActivity } from '../activity/record-activity';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { getLicenseCheck } from '../license/user-license';
import { findPortfolioCoin } from './get-coin';
import { userVenue, venueMarketData } from './venue-market-data';

/**
 * Adds a coin to the user's portfolio with DEFAULT_COIN_SETTINGS, paused (docs/grid.md#adding-a-coin).
 * Needs API keys (the coin bot trades on the user's exchange account) and a `<COIN>/USDT` spot
 * market there. A coin is one coin bot per exchange account: the same coin may run on two
 * exchanges (docs/grid.md#coins-on-several-exchanges). The licence's coin count is checked under a
 * lock on the user's row, so concurrent adds at the limit cannot both pass; the unique (exchange
 * account, coin) index turns a concurrent duplicate into COIN_ALREADY_ADDED.
 */
export const addPortfolioCoin = async (
  ctx: ServiceContext,
  input: { userId: number; coin: string; exchange?: Exchange | undefined },
): Promise<{ coin: PortfolioCoin }> => {
  // With keys on several exchanges, the call names one (EXCHANGE_REQUIRED): an add never guesses.
  const venue = await userVenue(ctx, { ...input, ambiguous: 'refuse' });
  if (venue.exchangeAccountId === null) throw new AppError('API_KEYS_MISSING');
  const symbol = `${input.coin}/USDT`;
  const { markets } = await venueMarketData(ctx, venue.venue);
  if (!markets.has(symbol)) throw new AppError('COIN_NOT_LISTED');
  const exchangeAccountId = venue.exchangeAccountId;
  try {
    await ctx.prisma.$transaction(async (tx) => {
      // Serializes this user's adds: the count below cannot change until this transaction ends.
      await tx.$queryRaw`SELECT id FROM users WHERE id = ${input.userId} FOR UPDATE`;
      const present = await tx.coinBot.findFirst({
        where: { exchangeAccountId, coin: input.coin, deletedAt: null },
        select: { id: true },
      });
      if (present) throw new AppError('COIN_ALREADY_ADDED');
      const license = await getLicenseCheck(ctx, { userId: input.userId, db: tx });
      if (license.usage.coins + 1 > license.level.coins) throw new AppError('COIN_LIMIT');
      const bot = await tx.coinBot.create({
        data: {
          userId: input.userId,
          exchangeAccountId,
          coin: input.coin,
          symbol,
          orderSize: DEFAULT_COIN_SETTINGS.orderSize,
          stepPct: DEFAULT_COIN_SETTINGS.stepPct,
          stepIncreasePct: DEFAULT_COIN_SETTINGS.stepIncreasePct,
          maxTrades: DEFAULT_COIN_SETTINGS.maxTrades,
          dry: DEFAULT_COIN_SETTINGS.dry,
          running: false,
        },
      });
      await recordActivity(tx, {
        coinBotId: bot.id,
        userId: input.userId,
        kind: 'coin_added',
        actor: 'user',
        data: { symbol, settings: { ...DEFAULT_COIN_SETTINGS } },
      });
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw new AppError('COIN_ALREADY_ADDED');
    }
    throw error;
  }
  ctx.log.info({ userId: input.userId, coin: input.coin }, 'coin added');
  const exchange = venue.exchange as Exchange;
  return { coin: (await findPortfolioCoin(ctx, { ...input, exchange, prices: true })).view };
};
