import { setTimeout as sleep } from 'node:timers/promises';
import type { Exchange, Order } from 'ccxt';
import { venueAcceptsClientOrderId } from './client-order-id';
import { classifyFailure, ExchangeError, toExchangeError, venueWaitOf } from './errors';
import { ccxtAmount, toOrder } from './normalize';
import type { ExchangeCapabilities, ExchangeOrder, PlaceOrderInput, PlaceOrderResult } from './types';

export type PlacementContext = {
  exchange: Exchange;
  capabilities: ExchangeCapabilities;
  /** After an unknown outcome, wait this long before looking (recvWindow + clock slack): then it can no longer land. */
  settleMs: number;
  maxSubmitAttempts: number;
};

const LOOKUP_ATTEMPTS = 3;

/**
 * The order with this client id, or null when the exchange has none: first by client id (GET order
 * by origClientOrderId), then among the open orders (in case the exchange has not indexed it yet).
 * A lookup that cannot get an answer throws; it never reports "absent" on a failure.
 */
export const findOrderByClientId = async (
  ctx: PlacementContext,
  symbol: string,
  clientOrderId: string,
): Promise<ExchangeOrder | null> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lookupOnce(ctx.exchange, symbol, clientOrderId);
    } catch (error) {
      const failure = classifyFailure(error);
      // A throttled lookup is not retried: the venue's wait travels with the error (docs/grid.md#request-budget).
      const transient = failure.kind === 'unknown' || failure.kind === 'clock';
      if (!transient || attempt >= LOOKUP_ATTEMPTS) throw toExchangeError(error);
      await sleep(250 * attempt);
    }
  }
};

type BybitOrderCalls = Exchange & {
  privateGetV5OrderRealtime(params: Record<string, string>): Promise<{ result?: { list?: unknown[] } }>;
};

/**
 * Bybit: GET /v5/order/realtime by `orderLinkId` (order/open-order.mdx: open orders and, on a
 * unified account, recent ended ones); ccxt's fetchOrder cannot ask by our id alone.
 * docs/venues/bybit.md#endpoints
 */
const bybitByClientId = async (exchange: Exchange, symbol: string, clientOrderId: string) => {
  const market = exchange.market(symbol);
  const answer = await (exchange as BybitOrderCalls).privateGetV5OrderRealtime({
    category: 'spot',
    symbol: String(market.id),
    orderLinkId: clientOrderId,
  });
  const [first] = answer.result?.list ?? [];
  return first ? toOrder(exchange.parseOrder(first as Record<string, unknown>, market), clientOrderId) : null;
};

/** The venue's extra parameters of a look-up by the exchange's own id (Bybit: the 500-order notice). */
const byId = (venue: string): Record<string, unknown> => (venue === 'bybit' ? { acknowledged: true } : {});

const lookupOnce = async (exchange: Exchange, symbol: string, clientOrderId: string) => {
  if (exchange.id === 'bybit') {
    const found = await bybitByClientId(exchange, symbol, clientOrderId);
    if (found) return found;
  } else {
    try {
      // Binance's and OKX's classes map the unified `clientOrderId` (origClientOrderId, clOrdId).
      const order = await exchange.fetchOrder('', symbol, { clientOrderId });
      return toOrder(order, clientOrderId);
    } catch (error) {
      if (classifyFailure(error).kind !== 'not-found') throw error;
    }
  }
  const open = await exchange.fetchOpenOrders(symbol);
  const match = open.find((o) => o.clientOrderId === clientOrderId);
  return match ? toOrder(match, clientOrderId) : null;
};

const submit = (ctx: PlacementContext, input: PlaceOrderInput): Promise<Order> => {
  const params = { clientOrderId: input.clientOrderId };
  if (input.type === 'limit') {
    return ctx.exchange.createOrder(
      input.symbol,
      'limit',
      input.side,
      ccxtAmount(input.amount!),
      ccxtAmount(input.price!),
      params,
    );
  }
  if (input.quoteAmount !== undefined) {
    return ctx.exchange.createMarketBuyOrderWithCost(input.symbol, ccxtAmount(input.quoteAmount), params);
  }
  return ctx.exchange.createOrder(
    input.symbol,
    'market',
    input.side,
    ccxtAmount(input.amount!),
    undefined,
    params,
  );
};

const checkInput = (ctx: PlacementContext, input: PlaceOrderInput): void => {
  // The venue's own rule (docs/venues/README.md): ours always fit it, a caller's own ids may too.
  if (!venueAcceptsClientOrderId(ctx.exchange.id, input.clientOrderId)) {
    throw new ExchangeError('ORDER_REJECTED', `invalid clientOrderId "${input.clientOrderId}"`);
  }
  if (input.type === 'limit' && (input.price === undefined || input.amount === undefined)) {
    throw new ExchangeError('ORDER_REJECTED', 'a limit order needs price and amount');
  }
  if (input.type === 'market' && (input.amount === undefined) === (input.quoteAmount === undefined)) {
    throw new ExchangeError('ORDER_REJECTED', 'a market order needs exactly one of amount and quoteAmount');
  }
  if (input.quoteAmount !== undefined && input.side !== 'buy') {
    throw new ExchangeError('ORDER_REJECTED', 'a quote amount is for market buys; sell an amount');
  }
  if (input.quoteAmount !== undefined && !ctx.capabilities.marketBuyWithCost) {
    throw new ExchangeError(
      'EXCHANGE_UNSUPPORTED',
      `${ctx.capabilities.exchange} cannot take a quote amount`,
    );
  }
};

/**
 * Idempotent placement. An order that already carries this client id is returned as it is
 * (`existing: true`). After a timeout, a dropped connection or Binance's "execution status unknown",
 * nothing is resent until a lookup has shown the order absent — and the lookup waits until the
 * request's recvWindow has passed, after which the exchange can no longer execute it late.
 * A "Duplicate order sent." rejection resolves to the order that holds the id.
 */
export const placeOrder = async (
  ctx: PlacementContext,
  input: PlaceOrderInput,
): Promise<PlaceOrderResult> => {
  checkInput(ctx, input);
  // The look-up costs 4–10 weight of the IP's budget against the placement's 1 (docs/venues/binance.md#request-weight):
  // it is skipped only when the caller knows this id was never sent.
  if (!input.fresh) {
    const before = await findOrderByClientId(ctx, input.symbol, input.clientOrderId);
    if (before) return { order: before, existing: true };
  }
  let lastFailure = '';
  // Once an answer was lost, the order may exist: any later failure must leave it "unknown"
  // (retryable), never "rejected", or the caller would give up on an order that is resting.
  let uncertain = false;
  const unsure = (error: unknown) => {
    if (!uncertain) return toExchangeError(error);
    const wait = venueWaitOf(error);
    return new ExchangeError(
      'EXCHANGE_UNAVAILABLE',
      `order ${input.clientOrderId} outcome unknown: ${String(error)}`,
      {
        retryable: true,
        ...(wait ? { wait } : {}),
      },
    );
  };
  for (let attempt = 1; attempt <= ctx.maxSubmitAttempts; attempt++) {
    try {
      const placed = await submit(ctx, input);
      // Some venues answer a placement with its ids only (Bybit, OKX): its state is looked up once.
      if (placed.status === undefined) {
        const state = await findOrderByClientId(ctx, input.symbol, input.clientOrderId).catch(() => null);
        if (state) return { order: state, existing: false };
      }
      return { order: toOrder(placed, input.clientOrderId), existing: false };
    } catch (error) {
      const failure = classifyFailure(error);
      lastFailure = failure.message;
      if (failure.kind === 'failed' || failure.kind === 'not-found') throw unsure(error);
      if (failure.kind === 'duplicate') {
        const holder = await findOrderByClientId(ctx, input.symbol, input.clientOrderId);
        if (holder) return { order: holder, existing: true };
        throw toExchangeError(error);
      }
      if (failure.kind === 'clock') {
        // Rejected before execution: re-measure the clock offset and send again.
        await ctx.exchange.loadTimeDifference();
        continue;
      }
      if (failure.kind === 'throttled') {
        // 429/418/-1015 (or no room in the budget): not executed, and resending would earn a ban.
        // The wait travels with the error; the caller's job is deferred until it has passed.
        throw unsure(error);
      }
      // The request was signed before it failed, so recvWindow counted from now covers it.
      uncertain = true;
      await sleep(ctx.settleMs);
      let landed: ExchangeOrder | null;
      try {
        landed = await findOrderByClientId(ctx, input.symbol, input.clientOrderId);
      } catch (lookupError) {
        throw unsure(lookupError);
      }
      if (landed) return { order: landed, existing: false };
    }
  }
  throw new ExchangeError('EXCHANGE_UNAVAILABLE', `order ${input.clientOrderId} not placed: ${lastFailure}`, {
    retryable: true,
  });
};

/**
 * Idempotent cancel. Returns the order's final state, or null when the exchange has no such order.
 * "Unknown order" (already filled, cancelled or never placed) is not an error: the order is looked up
 * so the caller learns whether it filled.
 */
export const cancelOrder = async (
  ctx: PlacementContext,
  symbol: string,
  ref: { id?: string; clientOrderId?: string },
): Promise<ExchangeOrder | null> => {
  if (!ref.id && !ref.clientOrderId)
    throw new ExchangeError('ORDER_REJECTED', 'cancelOrder needs id or clientOrderId');
  // ccxt's bybit passes our id on as `orderLinkId` only under that name; the others map `clientOrderId`.
  const idField = ctx.exchange.id === 'bybit' ? 'orderLinkId' : 'clientOrderId';
  const params = ref.clientOrderId ? { [idField]: ref.clientOrderId } : {};
  try {
    // Without the exchange's id the request names ours alone (Bybit refuses an empty orderId beside it).
    const id = ref.id ?? (undefined as unknown as string);
    const answer = await ctx.exchange.cancelOrder(id, symbol, params);
    // Bybit and OKX answer a cancel with the ids only: the order's final state is looked up below.
    if (answer.status !== undefined) return toOrder(answer, ref.clientOrderId);
  } catch (error) {
    const failure = classifyFailure(error);
    if (failure.kind === 'failed' || failure.kind === 'duplicate' || failure.kind === 'throttled') {
      throw toExchangeError(error);
    }
    if (failure.kind === 'unknown') await sleep(ctx.settleMs);
  }
  const current = ref.clientOrderId
    ? await findOrderByClientId(ctx, symbol, ref.clientOrderId)
    : await fetchById(ctx.exchange, symbol, ref.id!);
  if (current?.status !== 'open') return current;
  // Still open after an unknown or throttled answer: one more cancel, now with a definite outcome.
  try {
    const again = await ctx.exchange.cancelOrder(current.id, symbol);
    if (again.status !== undefined) return toOrder(again, current.clientOrderId ?? undefined);
    return await fetchById(ctx.exchange, symbol, current.id);
  } catch (error) {
    throw toExchangeError(error);
  }
};

const fetchById = async (exchange: Exchange, symbol: string, id: string): Promise<ExchangeOrder | null> => {
  try {
    return toOrder(await exchange.fetchOrder(id, symbol, byId(exchange.id)));
  } catch (error) {
    if (classifyFailure(error).kind === 'not-found') return null;
    throw toExchangeError(error);
  }
};
