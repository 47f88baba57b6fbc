import type { FastifyInstance } from 'fastify';
import type { SandboxOrder } from '../matching-engine';
import type { SandboxExchange } from '../sandbox-exchange';
import { bybitError } from './bybit-error';
import { bybitMarket, spotOnly } from './bybit-market-routes';
import { executionJson, orderJson, orderStatus, resting } from './bybit-order-json';
import { findOrder } from './bybit-order-routes';
import { type BybitParams, bybitAuthenticate } from './bybit-request';

/** Bybit keeps the last 500 ended orders queryable on /v5/order/realtime. docs/venues/bybit.md#endpoints */
const RECENT_ENDED = 500;
const WEEK_MS = 7 * 86_400_000;

const intParam = (params: BybitParams, name: string): number | undefined => {
  const raw = params.get(name);
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw bybitError('10001');
  return Number(raw);
};

/** `limit` within [1, max] (10001 outside it), `fallback` when absent. */
const limitParam = (params: BybitParams, fallback: number, max: number): number => {
  const limit = intParam(params, 'limit') ?? fallback;
  if (limit < 1 || limit > max) throw bybitError('10001');
  return limit;
};

/**
 * order-list.mdx and execution.mdx, `startTime`/`endTime`: neither given, the last 7 days; only
 * startTime, [startTime, startTime + 7 days]; only endTime, [endTime − 7 days, endTime]; both,
 * endTime − startTime at most 7 days (else 10001). docs/venues/bybit.md#endpoints
 */
const timeWindow = (params: BybitParams, now: number): { from: number; to: number } => {
  const start = intParam(params, 'startTime');
  const end = intParam(params, 'endTime');
  if (start !== undefined && end !== undefined) {
    if (end < start || end - start > WEEK_MS) throw bybitError('10001');
    return { from: start, to: end };
  }
  if (start !== undefined) return { from: start, to: start + WEEK_MS };
  if (end !== undefined) return { from: end - WEEK_MS, to: end };
  return { from: now - WEEK_MS, to: now };
};

/**
 * Bybit's cursor paging: `limit` items newest first, and `nextPageCursor` to pass back as `cursor`
 * for the next (older) page, "" on the last one. The cursor is opaque to the client; ours names the
 * last item given as `page_args%3D<id>%26`, URL-encoded text as in Bybit's spot answers (a real
 * one: "page_args%3Dfd4300ae-…%26symbol%3D6%26"). A cursor we did not give is 10001.
 * docs/venues/bybit.md#endpoints
 */
const page = <T>(newestFirst: T[], idOf: (item: T) => number, params: BybitParams, limit: number) => {
  const cursor = params.get('cursor');
  let from = 0;
  if (cursor) {
    const match = /^page_args(?:%3D|=)(\d+)(?:%26|&)$/.exec(cursor);
    if (!match) throw bybitError('10001');
    const after = Number(match[1]);
    from = newestFirst.findIndex((item) => idOf(item) < after);
    if (from === -1) from = newestFirst.length;
  }
  const list = newestFirst.slice(from, from + limit);
  const last = list.at(-1);
  const more = from + limit < newestFirst.length && last !== undefined;
  return { list, nextPageCursor: more ? `page_args%3D${idOf(last)}%26` : '' };
};

const symbolOf = (exchange: SandboxExchange, params: BybitParams): string | undefined => {
  const symbolText = params.get('symbol');
  return symbolText ? bybitMarket(exchange, symbolText).market.symbol : undefined;
};

/** Bybit's signed order queries, category spot: open and recent orders, history, fills. */
export const bybitOrderQueryRoutes = (app: FastifyInstance, exchange: SandboxExchange): void => {
  // open-order.mdx: open orders (newest first; limit [1, 50], 20 by default; cursor paging), or one
  // by id among open and the last 500 ended ones, or (openOnly=1) the recent ended ones.
  // docs/venues/bybit.md#endpoints
  app.get('/v5/order/realtime', async (request) => {
    const { key, params } = bybitAuthenticate(exchange, request, 'read');
    spotOnly(params);
    const symbol = symbolOf(exchange, params);
    const limit = limitParam(params, 20, 50);
    const all = exchange.engine.allOrders(key.accountId, symbol);
    const ended = all.filter((o) => !resting(o)).slice(-RECENT_ENDED);
    let picked: SandboxOrder[];
    if (params.get('orderId') || params.get('orderLinkId')) {
      const found = findOrder(exchange, key.accountId, params, symbol);
      picked = found && (resting(found) || ended.includes(found)) ? [found] : [];
    } else if (params.get('openOnly') === '1') {
      picked = ended;
    } else {
      picked = all.filter(resting);
    }
    const trades = exchange.engine.trades(key.accountId, symbol);
    const { list, nextPageCursor } = page([...picked].reverse(), (o) => o.orderId, params, limit);
    return { category: 'spot', list: list.map((o) => orderJson(o, trades)), nextPageCursor };
  });

  // order-list.mdx: the account's ended orders (Filled, Cancelled, PartiallyFilledCanceled), newest
  // first, created within the time window; `orderStatus`, `orderId`, `orderLinkId` filter; limit
  // [1, 50], 20 by default; cursor paging. docs/venues/bybit.md#endpoints
  app.get('/v5/order/history', async (request) => {
    const { key, params } = bybitAuthenticate(exchange, request, 'read');
    spotOnly(params);
    const symbol = symbolOf(exchange, params);
    const limit = limitParam(params, 20, 50);
    const { from, to } = timeWindow(params, exchange.now());
    const status = params.get('orderStatus');
    const orderId = params.get('orderId');
    const linkId = params.get('orderLinkId');
    const picked = exchange.engine
      .allOrders(key.accountId, symbol)
      .filter(
        (o) =>
          !resting(o) &&
          o.time >= from &&
          o.time <= to &&
          (!status || orderStatus(o) === status) &&
          (!orderId || String(o.orderId) === orderId) &&
          (!linkId || o.clientOrderId === linkId),
      );
    const trades = exchange.engine.trades(key.accountId, symbol);
    const { list, nextPageCursor } = page(picked.reverse(), (o) => o.orderId, params, limit);
    return { category: 'spot', list: list.map((o) => orderJson(o, trades)), nextPageCursor };
  });

  // execution.mdx: the account's fills, newest first, within the time window; limit [1, 100], 50 by
  // default; cursor paging; `execType` Trade (every fill here is a trade).
  app.get('/v5/execution/list', async (request) => {
    const { key, params } = bybitAuthenticate(exchange, request, 'read');
    spotOnly(params);
    const symbol = symbolOf(exchange, params);
    const limit = limitParam(params, 50, 100);
    const { from, to } = timeWindow(params, exchange.now());
    const execType = params.get('execType');
    const orders = new Map(exchange.engine.allOrders(key.accountId, symbol).map((o) => [o.orderId, o]));
    const named = params.get('orderId') || params.get('orderLinkId');
    const order = named ? findOrder(exchange, key.accountId, params, symbol) : undefined;
    const fills = exchange.engine
      .trades(key.accountId, symbol)
      .filter(
        (t) =>
          (!execType || execType === 'Trade') &&
          (!named || t.orderId === order?.orderId) &&
          t.time >= from &&
          t.time <= to,
      );
    const { list, nextPageCursor } = page(fills.reverse(), (t) => t.id, params, limit);
    const feeRate = exchange.engine.feeRate;
    return {
      category: 'spot',
      list: list.map((t) => executionJson(t, orders.get(t.orderId), feeRate)),
      nextPageCursor,
    };
  });
};
