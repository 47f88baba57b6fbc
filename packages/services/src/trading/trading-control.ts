import type { Exchange } from '@gridbot/contracts';
import type { Prisma } from '@gridbot/db';
import { type CoinStateName, coinStateOf, type DryReason } from '@gridbot/domain';
import { reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import Decimal from 'decimal.js';
import { type ActivityEntry, type ActivityKind, recordActivity } from '../activity/record-activity';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { checkExchangeKeys } from '../exchange-keys/check-exchange-keys';
import { coinBotWhere } from '../exchange-keys/pick-exchange-account';
import { getLicenseCheck, type LicenseCheck } from '../license/user-license';

/** Why trading cannot start (catalogue codes, shown with the catalogue's text). */
export type TradingBlocker =
  | 'NO_API_CONNECTION'
  | 'EXCHANGE_BALANCE_ZERO'
  | 'FEE_BALANCE_EMPTY'
  | 'LICENSE_EXPIRED'
  | 'LICENSE_BALANCE_LIMIT'
  | 'COIN_LIMIT';

export type CoinSwitches = {
  coinUserId: number;
  coin: string;
  exchange: Exchange;
  running: boolean;
  dry: boolean;
  state: CoinStateName;
  dryReason: DryReason | null;
};

export type TradingState = {
  running: boolean;
  allRunning: boolean;
  dryAll: boolean;
  coins: CoinSwitches[];
  blockers: TradingBlocker[];
};

/** A user's fee sub-balance in micro-USDT (0 before the account exists; docs/fees.md). */
export const feeBalanceMicro = async (ctx: ServiceContext, userId: number): Promise<bigint> => {
  const account = await ctx.prisma.ledgerAccount.findUnique({
    where: { userId_subBalance: { userId, subBalance: 'fee' } },
    select: { balance: true },
  });
  return account?.balance ?? 0n;
};

const KEY_PROBLEMS = new Set([
  'API_KEY_INVALID',
  'API_KEY_NO_SPOT',
  'API_KEY_ACCOUNT_TYPE',
  'API_KEY_WITHDRAW_ENABLED',
  'API_KEY_IP_NOT_ALLOWED',
  'API_KEY_TRADING_EXPIRED',
]);

/**
 * What stands in the way of starting, from what is stored (no exchange call: the panel lists them
 * on every load): the last key verdict, the fee balance, the licence and its use. The exchange is
 * asked live only when the user presses start.
 */
export const getTradingBlockers = (input: {
  account: { checkProblem: string | null } | null;
  fee: bigint;
  license: LicenseCheck;
}): TradingBlocker[] => {
  const { account, fee, license } = input;
  const blockers: TradingBlocker[] = [];
  if (!account || (account.checkProblem && KEY_PROBLEMS.has(account.checkProblem))) {
    blockers.push('NO_API_CONNECTION');
  }
  if (fee <= 0n) blockers.push('FEE_BALANCE_EMPTY');
  if (license.status.expired) blockers.push('LICENSE_EXPIRED');
  if (license.usage.coins > license.level.coins) blockers.push('COIN_LIMIT');
  else if (new Decimal(license.usage.committedCapital).gt(license.level.balanceLimit)) {
    blockers.push('LICENSE_BALANCE_LIMIT');
  }
  return blockers;
};

/** The switches of every coin after a change, and what blocks starting. */
export const getTradingState = async (
  ctx: ServiceContext,
  input: { userId: number },
): Promise<TradingState> => {
  const [user, bots, license] = await Promise.all([
    ctx.prisma.user.findUniqueOrThrow({ where: { id: input.userId }, select: { dryAll: true } }),
    ctx.prisma.coinBot.findMany({
      where: { userId: input.userId, deletedAt: null },
      orderBy: { id: 'asc' },
      select: {
        id: true,
        coin: true,
        running: true,
        dry: true,
        maxTrades: true,
        orderSize: true,
        lastError: true,
        exchangeAccount: { select: { exchange: true } },
        _count: { select: { lots: { where: { closedAt: null } } } },
      },
    }),
    getLicenseCheck(ctx, { userId: input.userId }),
  ]);
  const [fee, accounts] = await Promise.all([
    feeBalanceMicro(ctx, input.userId),
    ctx.prisma.exchangeAccount.findMany({
      where: { userId: input.userId },
      orderBy: { id: 'asc' },
      select: { checkProblem: true },
    }),
  ]);
  // Keys on several exchanges: a refused key on any of them is a blocker to fix.
  const account =
    accounts.find((a) => a.checkProblem && KEY_PROBLEMS.has(a.checkProblem)) ?? accounts[0] ?? null;
  const coins = bots.map((bot): CoinSwitches => {
    const { state, dryReason } = coinStateOf({
      running: bot.running,
      coinDry: bot.dry,
      dryAll: user.dryAll,
      // Licence expiry and an empty fee balance stop buys at start only until the engine dries
      // coins for them (docs/grid.md#coin-states); the state shows what the engine does.
      openLots: bot._count.lots,
      maxTrades: bot.maxTrades,
      lastError: bot.lastError,
    });
    return {
      coinUserId: bot.id,
      coin: bot.coin,
      exchange: bot.exchangeAccount.exchange as Exchange,
      running: bot.running,
      dry: bot.dry,
      state,
      dryReason,
    };
  });
  return {
    running: coins.some((c) => c.running),
    allRunning: coins.length > 0 && coins.every((c) => c.running),
    dryAll: user.dryAll,
    coins,
    blockers: getTradingBlockers({ account, fee, license }),
  };
};

/** Which coin bots a call means: a coin (on an exchange), every coin on an exchange, or every coin. */
type Target = { userId: number; coin?: string | undefined; exchange?: Exchange | undefined };

/**
 * The coin bots a call acts on: one coin (404 when the user has no such coin; EXCHANGE_REQUIRED
 * when it runs on several exchanges and none was named), every coin of an exchange, or all of them.
 */
const targetBots = async (ctx: ServiceContext, target: Target) => {
  const bots = await ctx.prisma.coinBot.findMany({
    where: coinBotWhere(target),
    orderBy: { id: 'asc' },
    select: { id: true, coin: true, running: true, dry: true, exchangeAccountId: true },
  });
  if (target.coin && bots.length === 0) throw new AppError('COIN_NOT_FOUND');
  if (target.coin && bots.length > 1) throw new AppError('EXCHANGE_REQUIRED');
  return bots;
};

type Tx = Prisma.TransactionClient;

const ids = (rows: ReadonlyArray<{ id: number }>) => rows.map((row) => row.id);

/**
 * Applies `data` to each coin bot still matching `from`, one conditional update per row, and
 * returns the ids that changed: two concurrent calls never both log (or re-plan) the same change.
 */
const flip = async (
  tx: Tx,
  ids: readonly number[],
  from: Prisma.CoinBotWhereInput,
  data: (id: number) => Prisma.CoinBotUpdateManyMutationInput,
): Promise<{ id: number }[]> => {
  const changed: { id: number }[] = [];
  for (const id of ids) {
    const { count } = await tx.coinBot.updateMany({ where: { id, ...from }, data: data(id) });
    if (count === 1) changed.push({ id });
  }
  return changed;
};

const reconcileNow = async (ctx: ServiceContext, ids: readonly number[], reason: string) => {
  await ctx.queue.enqueueMany(
    reconcileCoinBotJob,
    ids.map((coinBotId) => ({
      payload: { coinBotId, reason },
      options: { jobId: reconcileJobId(coinBotId) },
    })),
  );
};

const entries = (
  userId: number,
  bots: ReadonlyArray<{ id: number }>,
  kind: ActivityKind,
  data?: Prisma.InputJsonObject,
): ActivityEntry[] =>
  bots.map((bot) => ({ coinBotId: bot.id, userId, kind, actor: 'user', ...(data ? { data } : {}) }));

/**
 * Refuses a start the way the spec's messages say, cheapest checks first, the exchange last:
 * licence expiry, licence limits, fee balance, then a live key check (NO_API_CONNECTION for missing
 * or refused keys, EXCHANGE_UNAVAILABLE when the exchange does not answer, EXCHANGE_BALANCE_ZERO
 * for an empty USDT balance). docs/grid.md#pause-and-start.
 */
const assertCanStart = async (
  ctx: ServiceContext,
  userId: number,
  exchangeAccountIds: ReadonlySet<number>,
): Promise<void> => {
  const license = await getLicenseCheck(ctx, { userId });
  if (license.status.expired) throw new AppError('LICENSE_EXPIRED');
  if (new Decimal(license.usage.committedCapital).gt(license.level.balanceLimit)) {
    throw new AppError('LICENSE_BALANCE_LIMIT');
  }
  if (license.usage.coins > license.level.coins) throw new AppError('COIN_LIMIT');
  if ((await feeBalanceMicro(ctx, userId)) <= 0n) throw new AppError('FEE_BALANCE_EMPTY');
  // The keys of each exchange account the started coins trade on.
  for (const exchangeAccountId of exchangeAccountIds) {
    const keys = await checkExchangeKeys(ctx, { userId, exchangeAccountId });
    if (keys.problem === 'EXCHANGE_UNAVAILABLE') throw new AppError('EXCHANGE_UNAVAILABLE');
    if (keys.problem === 'EXCHANGE_BALANCE_ZERO') throw new AppError('EXCHANGE_BALANCE_ZERO');
    if (keys.problem) throw new AppError('NO_API_CONNECTION');
  }
};

/** Starts one coin or every coin (paused ones), after the start checks. */
export const startTrading = async (ctx: ServiceContext, input: Target): Promise<TradingState> => {
  const bots = await targetBots(ctx, input);
  // "Start all" with nothing to start says so, before any check (docs/grid.md#pause-and-start).
  if (bots.length === 0) throw new AppError('NO_COINS_TO_START');
  await assertCanStart(ctx, input.userId, new Set(bots.map((b) => b.exchangeAccountId)));
  const now = ctx.clock.now();
  const started = await ctx.prisma.$transaction(async (tx) => {
    const changed = await flip(tx, ids(bots), { running: false }, () => ({ running: true, lastError: null }));
    // The first start dates the coin bot's history (docs/grid.md#pause-and-start).
    await tx.coinBot.updateMany({
      where: { id: { in: ids(changed) }, startedAt: null },
      data: { startedAt: now },
    });
    await recordActivity(tx, entries(input.userId, changed, 'started'));
    return changed;
  });
  await reconcileNow(ctx, ids(started), 'start');
  return getTradingState(ctx, input);
};

/** Pauses one coin or all: the next reconcile cancels their resting orders; lots stay. Never refused. */
export const pauseTrading = async (ctx: ServiceContext, input: Target): Promise<TradingState> => {
  const bots = await targetBots(ctx, input);
  const paused = await ctx.prisma.$transaction(async (tx) => {
    const changed = await flip(tx, ids(bots), { running: true }, () => ({ running: false }));
    await recordActivity(tx, entries(input.userId, changed, 'paused'));
    return changed;
  });
  await reconcileNow(ctx, ids(paused), 'pause');
  return getTradingState(ctx, input);
};

/** Sets the own dry flag of the given coin bots; those that change are logged and re-planned. */
const setCoinDry = async (
  ctx: ServiceContext,
  userId: number,
  bots: ReadonlyArray<{ id: number }>,
  dry: boolean,
): Promise<void> => {
  const changed = await ctx.prisma.$transaction(async (tx) => {
    const flipped = await flip(tx, ids(bots), { dry: !dry }, () => ({ dry }));
    await recordActivity(tx, entries(userId, flipped, dry ? 'dry_on' : 'dry_off', { scope: 'coin' }));
    return flipped;
  });
  await reconcileNow(ctx, ids(changed), dry ? 'dry' : 'undry');
};

/**
 * The token screen's mode switch: active = started and not dry (the start checks apply when it
 * was paused), dry = own dry flag on (a paused coin stays paused), paused = pause.
 */
export const setCoinMode = async (
  ctx: ServiceContext,
  input: Target & { coin: string; mode: 'active' | 'dry' | 'paused' },
): Promise<TradingState> => {
  const [bot] = await targetBots(ctx, input);
  if (!bot) throw new AppError('COIN_NOT_FOUND');
  if (input.mode === 'paused') return pauseTrading(ctx, input);
  if (input.mode === 'dry') {
    await setCoinDry(ctx, input.userId, [bot], true);
    return getTradingState(ctx, input);
  }
  // Start first: a refused start changes nothing, the dry flag included.
  if (!bot.running) await startTrading(ctx, input);
  await setCoinDry(ctx, input.userId, [bot], false);
  return getTradingState(ctx, input);
};

/**
 * Global drying mode. It overrides the coins' own flags without changing them, so switching it
 * off gives every coin its own setting back.
 */
export const setDryAll = async (
  ctx: ServiceContext,
  input: { userId: number; on: boolean },
): Promise<TradingState> => {
  const changed = await ctx.prisma.$transaction(async (tx) => {
    const updated = await tx.user.updateMany({
      where: { id: input.userId, dryAll: !input.on },
      data: { dryAll: input.on },
    });
    if (updated.count === 0) return [];
    const bots = await tx.coinBot.findMany({
      where: { userId: input.userId, deletedAt: null },
      select: { id: true },
    });
    await recordActivity(tx, entries(input.userId, bots, input.on ? 'dry_on' : 'dry_off', { scope: 'all' }));
    return bots;
  });
  await reconcileNow(ctx, ids(changed), input.on ? 'dry' : 'undry');
  return getTradingState(ctx, input);
};

/** Bulk rewrite of every coin's own dry flag: on = every coin active (own flag off), off = all dry. */
export const activateCoins = async (
  ctx: ServiceContext,
  input: { userId: number; active: boolean },
): Promise<TradingState> => {
  const bots = await targetBots(ctx, { userId: input.userId });
  await setCoinDry(ctx, input.userId, bots, !input.active);
  return getTradingState(ctx, input);
};
