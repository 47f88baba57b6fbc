import type { DealCommand as DealCommandView } from '@gridbot/contracts';
import { type DealCommand, Prisma } from '@gridbot/db';
import { reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import { type ActivityKind, recordActivity } from '../activity/record-activity';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { dealCommandView } from './deal-command-view';
import {
  assertTradingKeys,
  type DealCoin,
  dealMarket,
  findDealCoin,
  sellable,
  sendableQty,
} from './deal-market';

/*
 * The API's side of the deal controls (docs/grid.md#deal-controls): check the request against the
 * books and the exchange, record it as the coin bot's one pending command, queue its reconcile.
 * The engine carries it out; nothing here touches an order, so a user action never races it.
 */

type Kind = 'sell_lot' | 'close_all' | 'cancel_buy';
export type DealCommandInput = { userId: number; coinBotId: number; idempotencyKey?: string | undefined };
type Tx = Prisma.TransactionClient;

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';

/**
 * The command an earlier request with this Idempotency-Key recorded (docs/wallet.md#retries): the
 * same request answers it again, whatever it has done since; another request is REQUEST_CONFLICT.
 */
const replayed = async (
  ctx: ServiceContext,
  input: DealCommandInput,
  kind: Kind,
  lot: number | null,
): Promise<DealCommand | null> => {
  if (!input.idempotencyKey) return null;
  const earlier = await ctx.prisma.dealCommand.findUnique({
    where: { userId_idempotencyKey: { userId: input.userId, idempotencyKey: input.idempotencyKey } },
  });
  if (!earlier) return null;
  const same =
    earlier.kind === kind &&
    earlier.coinBotId === input.coinBotId &&
    (lot === null || earlier.lotSeqs[0] === lot);
  if (!same) throw new AppError('REQUEST_CONFLICT');
  return earlier;
};

/** One command at a time per coin bot: the next one waits until the engine has finished this one. */
const assertNothingPending = async (ctx: ServiceContext, coinBotId: number) => {
  const pending = await ctx.prisma.dealCommand.findUnique({ where: { pendingKey: coinBotId } });
  if (pending) throw new AppError('DEAL_COMMAND_PENDING');
};

type Recording = {
  kind: Kind;
  lotSeqs: number[];
  buyOrderId?: number;
  activity: { kind: ActivityKind; data: Prisma.InputJsonObject };
  /** Checks and changes inside the transaction that records the command. */
  inTx?: (tx: Tx) => Promise<void>;
};

/**
 * Records the command with its activity entry in one transaction; `pending_key` (unique) makes it
 * the coin bot's only pending one, so two concurrent requests record one. Then its reconcile is
 * queued under a job id of its own, which no running reconcile can swallow.
 */
const record = async (
  ctx: ServiceContext,
  bot: DealCoin,
  input: DealCommandInput,
  recording: Recording,
): Promise<DealCommand> => {
  let command: DealCommand;
  try {
    command = await ctx.prisma.$transaction(async (tx) => {
      await recording.inTx?.(tx);
      const created = await tx.dealCommand.create({
        data: {
          coinBotId: bot.id,
          userId: input.userId,
          kind: recording.kind,
          lotSeqs: recording.lotSeqs,
          buyOrderId: recording.buyOrderId ?? null,
          status: 'pending',
          pendingKey: bot.id,
          idempotencyKey: input.idempotencyKey ?? null,
        },
      });
      await recordActivity(tx, {
        coinBotId: bot.id,
        userId: input.userId,
        kind: recording.activity.kind,
        actor: 'user',
        data: { command: created.id, ...recording.activity.data },
      });
      return created;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const lot = recording.kind === 'sell_lot' ? (recording.lotSeqs[0] ?? null) : null;
    const earlier = await replayed(ctx, input, recording.kind, lot);
    if (earlier) return earlier;
    throw new AppError('DEAL_COMMAND_PENDING');
  }
  // The command is recorded: a queue failure must not turn the answer into an error (the sweep
  // reconciles every coin bot with a pending command).
  await ctx.queue
    .enqueue(
      reconcileCoinBotJob,
      { coinBotId: bot.id, reason: 'deal' },
      { jobId: `${reconcileJobId(bot.id)}-deal-${command.id}` },
    )
    .catch((error: unknown) => ctx.log.warn({ coinBotId: bot.id, err: error }, 'deal command not queued'));
  ctx.log.info({ coinBotId: bot.id, command: command.id, kind: command.kind }, 'deal command recorded');
  return command;
};

const answer = (command: DealCommand): { command: DealCommandView } => ({
  command: dealCommandView(command),
});

/**
 * "Sell now": one open deal at market. Refused when the deal is not the coin's (DEAL_NOT_FOUND),
 * is already closed (DEAL_ALREADY_SOLD), another command is pending, the keys are refused, the
 * market is not trading, or the lot is below the exchange's minimum order at the current price.
 */
export const sellDealNow = async (
  ctx: ServiceContext,
  input: DealCommandInput & { lot: number },
): Promise<{ command: DealCommandView }> => {
  const bot = await findDealCoin(ctx, input);
  const earlier = await replayed(ctx, input, 'sell_lot', input.lot);
  if (earlier) return answer(earlier);
  const lot = await ctx.prisma.lot.findUnique({
    where: { coinBotId_seq: { coinBotId: bot.id, seq: input.lot } },
  });
  if (!lot) throw new AppError('DEAL_NOT_FOUND');
  if (lot.closedAt) throw new AppError('DEAL_ALREADY_SOLD');
  await assertNothingPending(ctx, bot.id);
  assertTradingKeys(bot);
  const deal = await dealMarket(ctx, bot);
  const qty = sendableQty(deal.client, bot.symbol, lot);
  if (!sellable(deal, bot.symbol, qty)) throw new AppError('DEAL_BELOW_EXCHANGE_MIN');
  const command = await record(ctx, bot, input, {
    kind: 'sell_lot',
    lotSeqs: [lot.seq],
    activity: {
      kind: 'deal_sale_requested',
      data: { scope: 'lot', lots: [lot.seq], qty: qty.toFixed(), price: deal.price.toFixed() },
    },
    // Its take profit may have sold it since the checks above.
    inTx: async (tx) => {
      if (!(await tx.lot.findFirst({ where: { id: lot.id, closedAt: null }, select: { id: true } })))
        throw new AppError('DEAL_ALREADY_SOLD');
    },
  });
  return answer(command);
};

/**
 * "Close all deals": every open deal of the coin at market, those the exchange takes as an order
 * at the current price (a smaller one keeps its take profit). NO_OPEN_DEALS without any.
 */
export const closeAllDealsNow = async (
  ctx: ServiceContext,
  input: DealCommandInput,
): Promise<{ command: DealCommandView }> => {
  const bot = await findDealCoin(ctx, input);
  const earlier = await replayed(ctx, input, 'close_all', null);
  if (earlier) return answer(earlier);
  const lots = await ctx.prisma.lot.findMany({
    where: { coinBotId: bot.id, closedAt: null },
    orderBy: { seq: 'asc' },
  });
  if (lots.length === 0) throw new AppError('NO_OPEN_DEALS');
  await assertNothingPending(ctx, bot.id);
  assertTradingKeys(bot);
  const deal = await dealMarket(ctx, bot);
  const selling = lots.filter((lot) => sellable(deal, bot.symbol, sendableQty(deal.client, bot.symbol, lot)));
  if (selling.length === 0) throw new AppError('DEAL_BELOW_EXCHANGE_MIN');
  const seqs = selling.map((lot) => lot.seq);
  const command = await record(ctx, bot, input, {
    kind: 'close_all',
    lotSeqs: seqs,
    activity: {
      kind: 'deal_sale_requested',
      data: { scope: 'all', lots: seqs, price: deal.price.toFixed() },
    },
  });
  return answer(command);
};

/**
 * "Cancel the pending buy": the resting buy is cancelled by the next reconcile, and the coin turns
 * dry (its own flag, docs/grid.md#dry) so the grid does not place it again at once; its take
 * profits keep selling. Choosing "active" again buys by the rules. NO_PENDING_BUY without one.
 */
export const cancelPendingBuyNow = async (
  ctx: ServiceContext,
  input: DealCommandInput,
): Promise<{ command: DealCommandView }> => {
  const bot = await findDealCoin(ctx, input);
  const earlier = await replayed(ctx, input, 'cancel_buy', null);
  if (earlier) return answer(earlier);
  const buy = await ctx.prisma.order.findFirst({
    where: { coinBotId: bot.id, side: 'buy', type: 'limit', status: 'open' },
  });
  if (!buy) throw new AppError('NO_PENDING_BUY');
  await assertNothingPending(ctx, bot.id);
  assertTradingKeys(bot);
  await dealMarket(ctx, bot);
  const command = await record(ctx, bot, input, {
    kind: 'cancel_buy',
    lotSeqs: [buy.lotSeq],
    buyOrderId: buy.id,
    activity: {
      kind: 'buy_cancel_requested',
      data: {
        lot: buy.lotSeq,
        price: buy.price?.toFixed() ?? null,
        qty: buy.qty?.toFixed() ?? null,
        dry: true,
      },
    },
    inTx: async (tx) => {
      // It may have filled since the check above: then there is nothing to cancel.
      if (!(await tx.order.findFirst({ where: { id: buy.id, status: 'open' }, select: { id: true } })))
        throw new AppError('NO_PENDING_BUY');
      await tx.coinBot.update({ where: { id: bot.id }, data: { dry: true } });
    },
  });
  return answer(command);
};

/** The coin bot's last 10 deal commands, newest first: the pending one and how the last ones ended. */
export const listDealCommands = async (
  ctx: ServiceContext,
  input: { userId: number; coinBotId: number },
): Promise<{ commands: DealCommandView[] }> => {
  const bot = await findDealCoin(ctx, input);
  const rows = await ctx.prisma.dealCommand.findMany({
    where: { coinBotId: bot.id },
    orderBy: { id: 'desc' },
    take: 10,
  });
  return { commands: rows.map(dealCommandView) };
};
