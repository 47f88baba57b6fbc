import type { Exchange } from '@gridbot/contracts';
import type { Prisma, PrismaClient } from '@gridbot/db';
import { AppError } from '../errors';

type Db = PrismaClient | Prisma.TransactionClient;

/** The account fields a caller needs to reach the exchange. */
export type PickedAccount = { id: number; exchange: string; mode: string };

/**
 * The user's exchange account a call means (docs/grid.md#coins-on-several-exchanges): the one on
 * `exchange` when given (null: no keys there), else the only one (null: no keys at all).
 * `ambiguous`: what an omitted exchange means when the user has keys on several — `refuse`
 * (EXCHANGE_REQUIRED: a write must not guess) or `first` (the keys saved first: a read).
 */
export const pickExchangeAccount = async (
  db: Db,
  input: { userId: number; exchange?: Exchange | undefined; ambiguous: 'refuse' | 'first' },
): Promise<PickedAccount | null> => pickFrom(await userExchangeAccounts(db, input.userId), input);

/** Every exchange account of the user (one per exchange, at most three), in the order saved. */
export const userExchangeAccounts = (db: Db, userId: number): Promise<PickedAccount[]> =>
  db.exchangeAccount.findMany({
    where: { userId },
    orderBy: { id: 'asc' },
    select: { id: true, exchange: true, mode: true },
  });

/** pickExchangeAccount over accounts already read. */
export const pickFrom = (
  accounts: readonly PickedAccount[],
  input: { exchange?: Exchange | undefined; ambiguous: 'refuse' | 'first' },
): PickedAccount | null => {
  if (input.exchange) return accounts.find((a) => a.exchange === input.exchange) ?? null;
  if (accounts.length > 1 && input.ambiguous === 'refuse') throw new AppError('EXCHANGE_REQUIRED');
  return accounts[0] ?? null;
};

/**
 * The coin bots in the portfolio a call points at (docs/grid.md#coins-on-several-exchanges): a coin
 * (or every coin) on `exchange` when given, else wherever it is. A filter for `coinBot` queries.
 */
export const coinBotWhere = (input: {
  userId?: number;
  coin?: string | undefined;
  exchange?: Exchange | undefined;
}): Prisma.CoinBotWhereInput => ({
  ...(input.userId === undefined ? {} : { userId: input.userId }),
  deletedAt: null,
  ...(input.coin ? { coin: input.coin } : {}),
  ...(input.exchange ? { exchangeAccount: { exchange: input.exchange } } : {}),
});

/**
 * The one coin bot a coin name (and exchange) points at: COIN_NOT_FOUND when none,
 * EXCHANGE_REQUIRED when the coin runs on several exchanges and none was named.
 */
export const findCoinBot = async (
  db: Db,
  input: { userId: number; coin: string; exchange?: Exchange | undefined },
) => {
  const bots = await db.coinBot.findMany({ where: coinBotWhere(input), orderBy: { id: 'asc' }, take: 2 });
  if (bots.length > 1) throw new AppError('EXCHANGE_REQUIRED');
  const [bot] = bots;
  if (!bot) throw new AppError('COIN_NOT_FOUND');
  return bot;
};
