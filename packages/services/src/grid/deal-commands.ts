import type { DealCommand, Order, Prisma } from '@gridbot/db';
import { exactSum } from '@gridbot/domain';
import { fromMicro } from '@gridbot/ledger';
import Decimal from 'decimal.js';
import type { ActivityEntry } from '../activity/record-activity';
import type { ServiceContext } from '../context/service-context';
import { dec } from './coin-bot-state';

/*
 * The engine's side of the user's deal controls (docs/grid.md#deal-controls). The API records a
 * command; each reconcile pass settles the pending ones here, after the exchange's news is booked
 * and before it plans: which lots to sell at market now, and which commands are finished — told
 * from the books alone (the lots, and the orders that carry the command), so a crash or a second
 * worker settles them the same way.
 */

/** A command not carried out in this time is dropped, unless one of its orders is on its way. */
export const DEAL_COMMAND_TTL_MS = 120_000;

export type PendingDealCommand = DealCommand & { orders: Order[] };

type Outcome = 'sold' | 'partly_sold' | 'already_sold' | 'failed';
type LotResult = { seq: number; outcome: Outcome; quantity: Decimal; code: string | null };

export type DealWork = {
  /** Lots to sell at market in this pass (docs/grid.md#deal-controls). */
  sellNow: number[];
  /** The command whose market sell of a lot this is, for the order row. */
  commandOf: Map<number, number>;
};

type Bot = { id: number; userId: number; symbol: string };
/** Adds an entry to the reconcile's activity batch, written after the orders it placed (docs/grid.md#activity-log). */
type Log = (entry: ActivityEntry) => void;
type Run = { bot: Bot; log: Log };

const LIVE = new Set(['pending', 'open']);
const isLive = (order: Pick<Order, 'status'>) => LIVE.has(order.status);

/** What one lot of a sale command came to, or null while it is still to sell or selling. */
const lotResult = (
  seq: number,
  orders: Order[],
  open: boolean,
  expired: boolean,
): LotResult | 'sell' | null => {
  // An intent never sent (the market changed under it: docs/grid.md#markets-change) is sent anew.
  const mine = orders.filter(
    (order) => order.lotSeq === seq && (order.status !== 'canceled' || order.exchangeOrderId !== null),
  );
  if (mine.some(isLive)) return null;
  const quantity = mine.reduce((sum, order) => exactSum(sum, dec(order.filledQty)), new Decimal(0));
  if (mine.length > 0) {
    if (quantity.gt(0)) return { seq, outcome: open ? 'partly_sold' : 'sold', quantity, code: null };
    const refused = mine.findLast((order) => order.rejectCode);
    return { seq, outcome: 'failed', quantity, code: refused?.rejectCode ?? 'ORDER_REJECTED' };
  }
  // Its take profit sold it first (or a cancel found it filled): the command changes nothing.
  if (!open) return { seq, outcome: 'already_sold', quantity, code: null };
  return expired ? { seq, outcome: 'failed', quantity, code: 'DEAL_COMMAND_EXPIRED' } : 'sell';
};

const statusOf = (results: LotResult[]): { status: string; code: string | null } => {
  if (results.some((r) => r.outcome === 'sold' || r.outcome === 'partly_sold'))
    return { status: 'done', code: null };
  const failed = results.find((r) => r.outcome === 'failed');
  if (!failed) return { status: 'already_sold', code: null };
  return { status: failed.code === 'DEAL_COMMAND_EXPIRED' ? 'expired' : 'failed', code: failed.code };
};

/** The deals a sale closed, as booked: proceeds, PnL and the platform fee (docs/fees.md#trading-fee). */
const saleResult = async (tx: Prisma.TransactionClient, bot: Bot, results: LotResult[]) => {
  const closed = results.filter((r) => r.outcome === 'sold').map((r) => r.seq);
  const lots = await tx.lot.findMany({ where: { coinBotId: bot.id, seq: { in: closed } } });
  const bySeq = new Map(lots.map((lot) => [lot.seq, lot]));
  let proceeds = new Decimal(0);
  let pnl = new Decimal(0);
  let fee = 0n;
  for (const lot of lots) {
    proceeds = exactSum(proceeds, dec(lot.proceeds ?? 0));
    pnl = exactSum(pnl, dec(lot.pnl ?? 0));
    fee += lot.tradeFee ?? 0n;
  }
  return {
    lots: results.map((r) => {
      const lot = r.outcome === 'sold' ? bySeq.get(r.seq) : undefined;
      return {
        lotNumber: r.seq,
        outcome: r.outcome,
        quantity: r.quantity.toFixed(),
        pnl: lot?.pnl ? dec(lot.pnl).toFixed() : null,
        tradeFee: lot ? fromMicro(lot.tradeFee ?? 0n) : null,
        code: r.code,
      };
    }),
    proceeds: proceeds.toFixed(),
    pnl: pnl.toFixed(),
    tradeFee: fromMicro(fee),
    boughtQty: null,
  };
};

/** Ends a command once (the flip from pending is conditional) and logs how. */
const finish = async (
  ctx: ServiceContext,
  { bot, log }: Run,
  command: PendingDealCommand,
  end: {
    status: string;
    code: string | null;
    result: (tx: Prisma.TransactionClient) => Promise<Prisma.InputJsonObject>;
  },
) => {
  const ended = await ctx.prisma.$transaction(async (tx) => {
    const result = await end.result(tx);
    const flipped = await tx.dealCommand.updateMany({
      where: { id: command.id, status: 'pending' },
      data: {
        status: end.status,
        code: end.code,
        result,
        finishedAt: ctx.clock.now(),
        pendingKey: null,
      },
    });
    return flipped.count === 1 ? result : null;
  });
  if (!ended) return;
  log({
    coinBotId: bot.id,
    userId: bot.userId,
    kind: 'deal_command_done',
    actor: 'engine',
    data: { command: command.id, kind: command.kind, status: end.status, code: end.code, ...ended },
    dedupeKey: `deal_command_done:${command.id}`,
  });
};

const noSale = { lots: [], proceeds: '0', pnl: '0', tradeFee: '0' };

/** A cancel_buy ends when its buy has: cancelled (what it filled before is booked) or filled first. */
const settleCancelBuy = async (
  ctx: ServiceContext,
  run: Run,
  command: PendingDealCommand,
  expired: boolean,
) => {
  const buy = command.buyOrderId
    ? await ctx.prisma.order.findUnique({ where: { id: command.buyOrderId } })
    : null;
  if (buy && isLive(buy)) {
    if (expired)
      await finish(ctx, run, command, {
        status: 'expired',
        code: 'DEAL_COMMAND_EXPIRED',
        result: async () => ({ ...noSale, boughtQty: null }),
      });
    return;
  }
  await finish(ctx, run, command, {
    status: buy?.status === 'filled' ? 'already_filled' : 'done',
    code: null,
    result: async () => ({ ...noSale, boughtQty: buy ? dec(buy.filledQty).toFixed() : '0' }),
  });
};

/**
 * Settles the coin bot's pending commands against the books of this pass and says what to sell
 * now. A lot of a sale command is sold (its market sell finished with a fill: `sold`, or
 * `partly_sold` when the book ran out and the rest stays a lot), was sold first by its take profit
 * (`already_sold`: nothing changes), or failed (the exchange refused the sale, or nothing was
 * sent within DEAL_COMMAND_TTL_MS). Until then it is sold at market (its take profit gives way).
 */
export const settleDealCommands = async (
  ctx: ServiceContext,
  input: Run & { commands: PendingDealCommand[]; openLots: readonly number[] },
): Promise<DealWork> => {
  const work: DealWork = { sellNow: [], commandOf: new Map() };
  const open = new Set(input.openLots);
  const now = ctx.clock.now().getTime();
  for (const command of input.commands) {
    const expired = now - command.createdAt.getTime() > DEAL_COMMAND_TTL_MS;
    if (command.kind === 'cancel_buy') {
      await settleCancelBuy(ctx, input, command, expired);
      continue;
    }
    const results: LotResult[] = [];
    let busy = false;
    for (const seq of command.lotSeqs) {
      const result = lotResult(seq, command.orders, open.has(seq), expired);
      if (result === 'sell' || (result === null && open.has(seq))) {
        work.sellNow.push(seq);
        work.commandOf.set(seq, command.id);
      }
      if (result === 'sell' || result === null) busy = true;
      else results.push(result);
    }
    if (busy) continue;
    const end = statusOf(results);
    await finish(ctx, input, command, {
      ...end,
      result: (tx) => saleResult(tx, input.bot, results),
    });
  }
  return work;
};

/**
 * The coin's market stopped trading or was delisted before the sales were carried out: they end
 * refused with that code, having changed nothing (docs/grid.md#markets-change). A command with an
 * order on its way is left to finish from that order.
 */
export const refuseDealCommands = async (
  ctx: ServiceContext,
  run: Run & { commands: PendingDealCommand[] },
  code: 'MARKET_CLOSED' | 'COIN_NOT_LISTED',
) => {
  for (const command of run.commands) {
    // A cancel_buy waits: its coin is dry, so the buy is cancelled once the market trades again.
    if (command.kind === 'cancel_buy' || command.orders.some(isLive)) continue;
    await finish(ctx, run, command, {
      status: 'failed',
      code,
      result: async () => ({ ...noSale, boughtQty: null }),
    });
  }
};
