import type { Order } from '@gridbot/db';
import { type DesiredOrder, isOrderableLot, plan } from '@gridbot/domain';
import {
  clientOrderIdFor,
  type ExchangeClient,
  type ExchangeOrder,
  isExchangeError,
  type MarketInfo,
  parseClientOrderId,
} from '@gridbot/exchange';
import { fillsApplied, ordersFailed, ordersPlaced, reconcileDuration } from '@gridbot/metrics';
import { type ActivityEntry, recordActivity } from '../activity/record-activity';
import type { ServiceContext } from '../context/service-context';
import { recordLastError } from './coin-bot-error';
import { dec, loadCoinBot } from './coin-bot-state';
import { refuseDealCommands, settleDealCommands } from './deal-commands';
import { markFillsConverged } from './fill-latency';
import { coinBotOrderKey } from './installation';
import { createLease, LeaseLostError } from './lease';
import type { LotOrderable } from './lot-booking';
import { marketStandingOf, recordDelisted, recordMarketStatus } from './market-status';
import { type OutcomeBot, recordOrderOutcome } from './record-order-outcome';

export type ReconcileInput = {
  coinBotId: number;
  /** How long the single-flight lease lasts without renewal (default 60 s). */
  leaseMs?: number;
  /** An order the exchange rejected is not tried again for this long (default 2 min). */
  rejectBackoffMs?: number;
  /** Why it runs (the job's reason); `restart` adds a reconciliation summary to the activity log. */
  reason?: string;
};

export type ReconcileResult = {
  /**
   * done: the exchange matches the plan. busy: another run holds the lease. retry: come back
   * shortly (trades not listed yet, lease lost, not converged). missing: no such coin bot.
   */
  status: 'busy' | 'missing' | 'done' | 'retry';
  placed: number;
  canceled: number;
  filled: number;
  /**
   * Orders recorded as pending (sent, answer never recorded: a crash or a stop) that the exchange
   * turned out to have: adopted instead of sent again. Counted once per order.
   */
  adopted: number;
  /** Resting orders with this coin bot's id prefix but no live row, cancelled (part of `canceled`). */
  orphansCanceled: number;
  /** The last rejection's code (the coin bot's lastError). */
  error?: string;
};

/** Enough passes for fill → re-plan → place chains of one trigger; more means "retry". */
const MAX_PASSES = 8;

/** A desired order as it will be sent: price and quantity on the exchange's grid. */
type Intent = DesiredOrder & { sendPrice: string | null; sendQty: string | null; sendQuote: string | null };

const toIntent = (client: ExchangeClient, symbol: string, d: DesiredOrder): Intent => {
  const sendPrice = d.price ? client.priceToPrecision(symbol, d.price) : null;
  const sendQty =
    d.side === 'sell' && d.qty
      ? client.amountToPrecision(symbol, d.qty)
      : d.type === 'limit' && d.quoteAmount && sendPrice
        ? client.amountForQuote(symbol, d.quoteAmount, sendPrice)
        : null;
  return {
    ...d,
    sendPrice,
    sendQty,
    sendQuote: d.type === 'market' && d.quoteAmount ? d.quoteAmount.toString() : null,
  };
};

const sameOrder = (row: Order, intent: Intent) =>
  row.key === intent.key &&
  row.side === intent.side &&
  row.type === intent.type &&
  (intent.sendPrice === null
    ? row.price === null
    : row.price !== null && dec(row.price).eq(intent.sendPrice)) &&
  (intent.sendQty === null || (row.qty !== null && dec(row.qty).eq(intent.sendQty)));

const liveKeyOf = (coinBotId: number, lotSeq: number, side: string) => `${coinBotId}:${lotSeq}:${side}`;

type Pass = { changed: boolean; incomplete: boolean };

/**
 * Makes the exchange hold exactly the orders the planner wants for one coin bot (docs/grid.md).
 * Each pass: (1) look up every order we know of, and every resting order carrying this coin bot's
 * id prefix, and apply finished fills; (2) cancel what the plan no longer wants; (3) write each
 * missing order as a `pending` intent with a deterministic clientOrderId, then place it — sells
 * first, and a rejection does not stop the rest. Idempotent and crash-safe: the next run adopts
 * whatever a killed run left. Single flight through a lease renewed before every exchange write.
 */
export const reconcileCoinBot = async (
  ctx: ServiceContext,
  input: ReconcileInput,
): Promise<ReconcileResult> => {
  // docs/operations.md#metrics: how long each reconcile took and how it ended.
  const timer = reconcileDuration.startTimer();
  try {
    const result = await runReconcile(ctx, input);
    timer({ outcome: result.status });
    return result;
  } catch (error) {
    timer({ outcome: 'error' });
    throw error;
  }
};

const runReconcile = async (ctx: ServiceContext, input: ReconcileInput): Promise<ReconcileResult> => {
  const { prisma } = ctx;
  const { coinBotId } = input;
  const result: ReconcileResult = {
    status: 'done',
    placed: 0,
    canceled: 0,
    filled: 0,
    adopted: 0,
    orphansCanceled: 0,
  };
  const salt = await ctx.installationSalt();
  const lease = createLease(ctx, coinBotId, input.leaseMs ?? 60_000);
  if (!(await lease.acquire())) return { ...result, status: 'busy' };
  let converged = false;
  // What this run did, written to the activity log in one insert at the end (docs/grid.md#activity-log).
  const activity: ActivityEntry[] = [];
  let owner: { id: number; userId: number } | null = null;
  // The coin bot and client of the current pass, to tell a delisting from another refusal.
  let current: { bot: Parameters<typeof recordDelisted>[1]; client: ExchangeClient } | null = null;
  // The coin bot of the current pass, to record a refused key on it.
  let keyed: { id: number; userId: number; symbol: string; lastError: string | null } | null = null;
  try {
    for (let pass = 0; pass < MAX_PASSES; pass += 1) {
      await lease.renew();
      const snapshot = await loadCoinBot(ctx, { coinBotId });
      if (!snapshot) return { ...result, status: 'missing' };
      const { bot } = snapshot;
      owner = { id: bot.id, userId: bot.userId };
      keyed = bot;
      const client = await ctx.exchanges.forAccount(bot.exchangeAccountId);
      // Fetched again once older than the TTL or after a refusal said they changed.
      await client.loadMarkets();
      current = { bot, client };
      // A market that is not trading: the coin waits (no orders, no error); a delisted one is an
      // error the user is told about (docs/grid.md#markets-change).
      const standing = marketStandingOf(client, bot.symbol);
      // The user's deal commands; how each ends is logged after the orders it took (docs/grid.md#deal-controls).
      const deals = { bot, commands: snapshot.commands, log: (entry: ActivityEntry) => activity.push(entry) };
      if (standing.kind === 'delisted') {
        await refuseDealCommands(ctx, deals, 'COIN_NOT_LISTED');
        await recordDelisted(ctx, bot);
        converged = true;
        return { ...result, error: 'COIN_NOT_LISTED' };
      }
      await recordMarketStatus(ctx, bot, standing.kind === 'closed' ? standing.status : null);
      if (standing.kind === 'closed') {
        // The user's sales are refused, not left to run when the market opens (docs/grid.md#deal-controls).
        await refuseDealCommands(ctx, deals, 'MARKET_CLOSED');
        converged = true;
        return result;
      }
      const market = client.market(bot.symbol);
      const run: PassContext = {
        ctx,
        input,
        client,
        bot,
        lease,
        result,
        key: coinBotOrderKey(salt, bot.id),
        orderableLot: (qty, lotPrice) => isOrderableLot(qty, lotPrice, snapshot.settings, market),
        commandOf: new Map(),
        cancelling: new Set(snapshot.commands.flatMap((c) => (c.buyOrderId ? [c.buyOrderId] : []))),
        log: (kind, row, data) =>
          activity.push({
            coinBotId: bot.id,
            userId: bot.userId,
            kind,
            actor: kind === 'order_rejected' ? 'exchange' : 'engine',
            data: { key: row.key, side: row.side, type: row.type, ...data },
            dedupeKey: `${kind}:${row.clientOrderId}`,
          }),
      };

      const { live, changed, incomplete } = await syncOrders(run, snapshot.active);
      // Trades not listed yet: planning now would buy the same lot again. Come back shortly.
      if (incomplete) return { ...result, status: 'retry' };
      if (changed) continue;

      // The user's deal commands, settled on the books this pass applied (docs/grid.md#deal-controls).
      const work = await settleDealCommands(ctx, {
        ...deals,
        openLots: snapshot.state.lots.map((lot) => lot.seq),
      });
      run.commandOf = work.commandOf;
      const intents = plan(snapshot.state, snapshot.settings, snapshot.flags, {
        sellNow: work.sellNow,
      }).map((d) => toIntent(client, bot.symbol, d));
      const kept = await cancelUnwanted(run, live, intents);
      if (kept.changed) continue;
      if (!(await placeMissing(run, kept.rows, intents)).changed) {
        converged = true;
        await markFillsConverged(ctx, { coinBotId: bot.id, at: ctx.clock.now() });
        const lastError = result.error ?? null;
        if (bot.lastError !== lastError && bot.lastError !== 'UNEXPECTED_FILL') {
          await recordLastError(ctx, { bot, previous: bot.lastError, lastError });
        }
        return result;
      }
    }
    return { ...result, status: 'retry' };
  } catch (error) {
    if (error instanceof LeaseLostError) return { ...result, status: 'retry' };
    // -1121 mid-pass: the client fetched the markets again; if the symbol is gone, it was delisted.
    if (
      isExchangeError(error) &&
      error.code === 'COIN_NOT_LISTED' &&
      current &&
      marketStandingOf(current.client, current.bot.symbol).kind === 'delisted'
    ) {
      await recordDelisted(ctx, current.bot);
      converged = true;
      return { ...result, error: 'COIN_NOT_LISTED' };
    }
    // A refused key fails every call, reads included (an IP it does not trust, an ended trading
    // term): the coin bot stands still until it is fixed, and the user is told which it is.
    if (
      keyed &&
      isExchangeError(error) &&
      error.code.startsWith('API_KEY_') &&
      keyed.lastError !== error.code
    ) {
      await recordLastError(ctx, { bot: keyed, previous: keyed.lastError, lastError: error.code });
    }
    throw error;
  } finally {
    await lease.release(converged);
    if (owner && input.reason === 'restart') {
      const { adopted, filled, orphansCanceled, placed, canceled } = result;
      activity.push({
        coinBotId: owner.id,
        userId: owner.userId,
        kind: 'restart_summary',
        actor: 'engine',
        data: { adopted, filled, orphansCanceled, placed, canceled, converged },
      });
    }
    await recordActivity(prisma, activity).catch((error: unknown) =>
      ctx.log.warn({ coinBotId, err: error }, 'activity log not written'),
    );
  }
};

type PassContext = {
  ctx: ServiceContext;
  input: ReconcileInput;
  client: ExchangeClient;
  bot: OutcomeBot & { exchangeAccountId: number };
  lease: ReturnType<typeof createLease>;
  result: ReconcileResult;
  /** What this coin bot's clientOrderIds are derived from. */
  key: string;
  /** A part-filled order's remainder can be a lot of its own (docs/grid.md#remainders): the market's filters at the coin's settings. */
  orderableLot: LotOrderable;
  /** Lot → the user's command whose market sell it is (docs/grid.md#deal-controls). */
  commandOf: Map<number, number>;
  /** Our rows of the buys the user's pending commands cancel: their cancel ends the command. */
  cancelling: Set<number>;
  /** Adds an entry about one of our orders to this run's activity batch. */
  log: (
    kind: 'order_placed' | 'order_filled' | 'order_cancelled' | 'order_rejected',
    row: Pick<Order, 'key' | 'side' | 'type' | 'clientOrderId'>,
    data: Record<string, string | number | null>,
  ) => void;
};

const outcome = async (run: PassContext, row: Order, order: ExchangeOrder) => {
  const recorded = await recordOrderOutcome(run.ctx, {
    bot: run.bot,
    row,
    order,
    tradesOf: (orderId) => run.client.fetchOrderTrades(run.bot.symbol, orderId),
    orderableLot: run.orderableLot,
  });
  if (recorded === 'filled') {
    run.result.filled += 1;
    fillsApplied.labels(row.side).inc();
    run.log('order_filled', row, {
      qty: order.filled.toFixed(),
      price: (order.average ?? order.price)?.toFixed() ?? null,
      status: order.status,
    });
  }
  return recorded;
};

/** Step 1: what happened to our orders; resting orders with our prefix but no live row are adopted or cancelled. */
const syncOrders = async (run: PassContext, active: Order[]): Promise<Pass & { live: Order[] }> => {
  const { prisma } = run.ctx;
  const { symbol } = run.bot;
  const resting = await run.client.fetchOpenOrders(symbol);
  const restingById = new Map(resting.map((o) => [o.clientOrderId, o]));
  const pass: Pass & { live: Order[] } = { changed: false, incomplete: false, live: [] };
  for (const row of active) {
    const order =
      restingById.get(row.clientOrderId) ??
      (await run.client.fetchOrderByClientId(symbol, row.clientOrderId));
    if (!order) {
      if (row.status === 'pending') pass.live.push(row);
      else
        await prisma.order.updateMany({
          where: { id: row.id, status: 'open' },
          data: { status: 'canceled', liveKey: null },
        });
      continue;
    }
    if (row.status === 'pending') run.result.adopted += 1;
    const recorded = await outcome(run, row, order);
    if (recorded === 'filled') pass.changed = true;
    else if (recorded === 'incomplete') pass.incomplete = true;
    else if (order.status === 'open') pass.live.push({ ...row, status: 'open', exchangeOrderId: order.id });
  }
  const ownHash = parseClientOrderId(
    clientOrderIdFor({ coinBotId: run.key, lotSeq: 0, side: 'buy', attempt: 0 }),
  )?.botHash;
  const known = new Set(active.map((r) => r.clientOrderId));
  for (const order of resting) {
    if (!order.clientOrderId || known.has(order.clientOrderId)) continue;
    if (parseClientOrderId(order.clientOrderId)?.botHash !== ownHash) continue;
    // Ours but not live in the database (e.g. marked rejected after an unknown outcome): cancel it,
    // then record whatever it filled before.
    await run.lease.renew();
    const final = (await run.client.cancelOrder(symbol, { clientOrderId: order.clientOrderId })) ?? order;
    run.result.canceled += 1;
    run.result.orphansCanceled += 1;
    run.log(
      'order_cancelled',
      { key: 'orphan', side: order.side, type: order.type, clientOrderId: order.clientOrderId },
      { price: order.price?.toFixed() ?? null, reason: 'orphan' },
    );
    const row = await prisma.order.findUnique({ where: { clientOrderId: order.clientOrderId } });
    if (row && final.filled.gt(0)) {
      await prisma.order.update({ where: { id: row.id }, data: { status: 'open' } });
      if ((await outcome(run, { ...row, status: 'open' }, final)) === 'filled') pass.changed = true;
    }
  }
  return pass;
};

/** Step 2: cancel the orders the plan no longer wants (pause, settings edit, replaced price). */
const cancelUnwanted = async (run: PassContext, live: Order[], intents: Intent[]) => {
  const { prisma } = run.ctx;
  const rows = new Map<string, Order>();
  let changed = false;
  for (const row of live) {
    const intent = intents.find((i) => i.key === row.key);
    if (intent && !rows.has(row.key) && sameOrder(row, intent)) {
      rows.set(row.key, row);
      continue;
    }
    if (row.status === 'pending') {
      await prisma.order.updateMany({
        where: { id: row.id, status: 'pending' },
        data: { status: 'canceled', liveKey: null },
      });
      continue;
    }
    await run.lease.renew();
    const order =
      (await run.client.cancelOrder(run.bot.symbol, { clientOrderId: row.clientOrderId })) ??
      (await run.client.fetchOrderByClientId(run.bot.symbol, row.clientOrderId));
    run.result.canceled += 1;
    run.log('order_cancelled', row, { price: row.price?.toFixed() ?? null, reason: 'replanned' });
    if (!order) {
      await prisma.order.updateMany({
        where: { id: row.id, status: 'open' },
        data: { status: 'canceled', liveKey: null },
      });
      continue;
    }
    const recorded = await outcome(run, row, order);
    // A buy the user cancelled: the next pass ends their command (docs/grid.md#deal-controls).
    if (recorded === 'filled' || recorded === 'incomplete' || run.cancelling.has(row.id)) changed = true;
  }
  return { rows, changed };
};

/**
 * Step 3: place what is missing (or re-send an intent a crash left pending). Sells go first. An
 * order that fills on arrival changes the lots, so the rest of this plan is out of date: stop and
 * plan again from the new state (docs/grid.md#live-execution) — a buy planned from a lot that just
 * closed must never be sent.
 */
const placeMissing = async (run: PassContext, kept: Map<string, Order>, intents: Intent[]) => {
  const { prisma } = run.ctx;
  const ordered = [...intents].sort((a, b) => (a.side === b.side ? 0 : a.side === 'sell' ? -1 : 1));
  // With no buy in the plan (held while the user's sales run), one lot's sale changes no other order.
  const buyless = !intents.some((intent) => intent.side === 'buy');
  let sold = false;
  for (const intent of ordered) {
    const existing = kept.get(intent.key);
    if (existing?.status === 'open') continue;
    // The user's market sell is their explicit ask: no back-off from an earlier refusal.
    if (!existing && intent.role !== 'market_sell' && (await recentlyRejected(run, intent))) continue;
    const row = existing ?? (await writeIntent(run, intent));
    await run.lease.renew();
    const market = run.client.market(run.bot.symbol);
    try {
      const placed = await run.client.placeOrder({
        symbol: run.bot.symbol,
        side: intent.side,
        type: intent.type,
        clientOrderId: row.clientOrderId,
        // A new intent's id was never sent; a pending one left by a crash is looked up first.
        fresh: !existing,
        ...(intent.sendPrice ? { price: intent.sendPrice } : {}),
        ...(intent.sendQty ? { amount: intent.sendQty } : {}),
        ...(intent.sendQuote ? { quoteAmount: intent.sendQuote } : {}),
      });
      run.result.placed += placed.existing ? 0 : 1;
      if (!placed.existing) {
        ordersPlaced.labels(intent.side).inc();
        run.log('order_placed', row, {
          price: intent.sendPrice,
          qty: intent.sendQty,
          quote: intent.sendQuote,
        });
      }
      const recorded = await outcome(run, row, placed.order);
      if (recorded === 'filled' && intent.role === 'market_sell' && buyless) sold = true;
      else if (recorded === 'filled' || recorded === 'incomplete') return { changed: true };
    } catch (error) {
      ordersFailed.labels(isExchangeError(error) ? error.code : 'UNEXPECTED').inc();
      if (!isExchangeError(error) || error.retryable) throw error;
      const moved = marketMoved(run, market);
      // Refused because the market changed under the plan (the client has fetched it again): the
      // order was never placed; plan again on the new tick, lot step or status, at once.
      // Otherwise it is rejected for good (balance, filters): record it and go on with the others.
      await prisma.order.updateMany({
        where: { id: row.id, status: 'pending' },
        data: {
          status: moved ? 'canceled' : 'rejected',
          liveKey: null,
          ...(moved ? {} : { rejectCode: error.code }),
        },
      });
      // A refused market sell ends the user's command with this code instead (docs/grid.md#deal-controls).
      if (!moved && intent.role !== 'market_sell') run.result.error = error.code;
      // The exchange's own code and message as it sent them (docs/grid.md#activity-log), with our code.
      run.log('order_rejected', row, {
        code: error.code,
        exchangeCode: error.options.exchangeCode ?? null,
        message: error.options.exchangeMessage ?? error.message,
        price: intent.sendPrice,
      });
      if (moved || intent.role === 'market_sell') return { changed: true };
    }
  }
  return { changed: sold };
};

/** The coin's market is no longer what `before` was: another tick, lot step, minimum or status, or gone. */
const marketMoved = (run: PassContext, before: MarketInfo): boolean => {
  let after: MarketInfo;
  try {
    after = run.client.market(run.bot.symbol);
  } catch {
    return true;
  }
  const same = (a: MarketInfo['minQty'], b: MarketInfo['minQty']) => (a && b ? a.eq(b) : a === b);
  return (
    !after.active ||
    !after.tickSize.eq(before.tickSize) ||
    !after.stepSize.eq(before.stepSize) ||
    !same(after.minQty, before.minQty) ||
    !same(after.minNotional, before.minNotional)
  );
};

const recentlyRejected = async (run: PassContext, intent: Intent) => {
  const since = new Date(run.ctx.clock.now().getTime() - (run.input.rejectBackoffMs ?? 120_000));
  const rejected = await run.ctx.prisma.order.findFirst({
    where: { coinBotId: run.bot.id, key: intent.key, status: 'rejected', updatedAt: { gt: since } },
    select: { id: true },
  });
  if (rejected) run.result.error ??= (await lastErrorOf(run)) ?? undefined;
  return rejected !== null;
};

const lastErrorOf = async (run: PassContext) =>
  (await run.ctx.prisma.coinBot.findUnique({ where: { id: run.bot.id }, select: { lastError: true } }))
    ?.lastError;

/** Records the order before it is sent; attempt = earlier orders for the same lot and side + 1. */
const writeIntent = async (run: PassContext, intent: Intent) => {
  const { prisma } = run.ctx;
  const earlier = await prisma.order.count({
    where: { coinBotId: run.bot.id, lotSeq: intent.lotSeq, side: intent.side },
  });
  const attempt = earlier + 1;
  return prisma.order.create({
    data: {
      coinBotId: run.bot.id,
      clientOrderId: clientOrderIdFor({
        coinBotId: run.key,
        lotSeq: intent.lotSeq,
        side: intent.side,
        attempt,
      }),
      key: intent.key,
      role: intent.role,
      side: intent.side,
      type: intent.type,
      symbol: run.bot.symbol,
      price: intent.sendPrice,
      qty: intent.sendQty,
      quoteAmount: intent.quoteAmount?.toString() ?? null,
      lotSeq: intent.lotSeq,
      attempt,
      commandId: intent.role === 'market_sell' ? (run.commandOf.get(intent.lotSeq) ?? null) : null,
      status: 'pending',
      // Unique while live: a second live order for the same lot and side cannot be written.
      liveKey: liveKeyOf(run.bot.id, intent.lotSeq, intent.side),
    },
  });
};
