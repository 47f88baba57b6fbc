import { randomBytes } from 'node:crypto';
import { okx } from '@gridbot/venues';
import type { Decimal } from 'decimal.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeyRecord } from '../accounts';
import { spoilOrderAnswer } from '../dialect-faults';
import type { Market } from '../markets';
import type { OrderRequest } from '../matching-engine';
import { Dec, isMultipleOf } from '../money';
import { Refusal } from '../refusal';
import type { SandboxExchange } from '../sandbox-exchange';
import { OkxError, okxError, okxRefusal } from './okx-error';
import type { OkxFaults } from './okx-faults';
import { okxMarket } from './okx-market-routes';
import { clOrdIdOf, resting, SYSTEM_CLORDID_PREFIX } from './okx-order-json';
import { jsonBody, type OkxParams, objectParams, okxAuthenticate, okxParams } from './okx-request';

/** The words of an accepted placement, as ccxt's recorded OKX answers carry them (`sMsg`). */
const PLACED = 'Order placed';

/** At most 20 orders in one batch (Trade › Place multiple orders). */
const MAX_BATCH = 20;

const decimalParam = (params: OkxParams, name: string, required: boolean): Decimal | undefined => {
  const raw = params.get(name);
  if (raw === undefined || raw === '') {
    if (required) throw okxError('50014', name);
    return undefined;
  }
  if (!/^\d+(\.\d+)?$/.test(raw)) throw okxError('51000', name);
  const value = new Dec(raw);
  if (value.lte(0)) throw okxError('51000', name);
  return value;
};

/**
 * A size in the base coin: at least minSz (51020), on the lotSz grid (51121), at most the largest
 * (51000 on sz). docs/venues/okx.md#filters
 */
const checkSize = (market: Market, sz: Decimal): void => {
  if (sz.lt(market.minQty)) throw okxError('51020');
  if (!isMultipleOf(sz, market.stepSize)) throw okxError('51121');
  if (sz.gt(market.maxQty)) throw okxError('51000', 'sz');
};

/** A limit price on the tickSz grid and within the market's range, else a parameter error on px. */
const checkPx = (market: Market, px: Decimal): void => {
  if (!isMultipleOf(px, market.tickSize) || px.lt(market.minPrice) || px.gt(market.maxPrice))
    throw okxError('51000', 'px');
};

/** What a spot order is worth at least (the sandbox market's minimum order value): else 51020. */
const checkValue = (market: Market, value: Decimal): void => {
  if (value.lt(market.minNotional)) throw okxError('51020');
};

const ORD_TYPES = ['limit', 'market', 'post_only', 'ioc', 'fok'] as const;

/**
 * One spot order (Trade › Place order): instId, tdMode "cash", side, ordType, sz, px for the limit
 * types, clOrdId (1–32 letters and digits, unique among pending orders, 51016), tgtCcy for market
 * orders (a market buy's sz is in the quote coin unless tgtCcy is base_ccy; a sell's in the base
 * coin). A core refusal is said in OKX's words (okx-error.ts). docs/venues/okx.md#client-order-ids,
 * #filters
 */
const placeOne = (exchange: SandboxExchange, key: ApiKeyRecord, params: OkxParams) => {
  const instId = params.get('instId');
  if (!instId) throw okxError('50014', 'instId');
  const { market, price: last } = okxMarket(exchange, instId);
  const tdMode = params.get('tdMode');
  if (!tdMode) throw okxError('50014', 'tdMode');
  if (tdMode !== 'cash') throw okxError('51000', 'tdMode');
  const sideText = params.get('side');
  if (sideText !== 'buy' && sideText !== 'sell') throw okxError('51000', 'side');
  const side = sideText === 'buy' ? 'BUY' : 'SELL';
  const ordType = params.get('ordType') as (typeof ORD_TYPES)[number] | undefined;
  if (!ordType) throw okxError('50014', 'ordType');
  if (!ORD_TYPES.includes(ordType)) throw okxError('51000', 'ordType');
  const sz = decimalParam(params, 'sz', true)!;

  const given = params.get('clOrdId');
  if (given !== undefined && given !== '' && !okx.clientOrderId.pattern.test(given))
    throw okxError('51000', 'clOrdId');
  const clientOrderId = given || `${SYSTEM_CLORDID_PREFIX}${randomBytes(12).toString('hex')}`;
  const taken = exchange.engine
    .allOrders(key.accountId)
    .some((o) => resting(o) && o.clientOrderId === clientOrderId);
  if (taken) throw okxError('51016');

  // Get instruments › state: only a live pair trades; preopen is not listed yet (51021), any
  // other state suspended (51022). docs/venues/okx.md#errors
  if (market.status !== 'TRADING') throw okxError(market.status === 'PRE_TRADING' ? '51021' : '51022');

  let order: OrderRequest;
  if (ordType === 'market') {
    const tgtCcy = params.get('tgtCcy') || (side === 'BUY' ? 'quote_ccy' : 'base_ccy');
    if (tgtCcy !== 'quote_ccy' && tgtCcy !== 'base_ccy') throw okxError('51000', 'tgtCcy');
    if (tgtCcy === 'quote_ccy') {
      checkValue(market, sz);
      order = { side, type: 'MARKET', clientOrderId, quoteOrderQty: sz };
    } else {
      checkSize(market, sz);
      checkValue(market, sz.mul(last));
      order = { side, type: 'MARKET', clientOrderId, quantity: sz };
    }
  } else {
    const px = decimalParam(params, 'px', true)!;
    checkPx(market, px);
    checkSize(market, sz);
    checkValue(market, px.mul(sz));
    order =
      ordType === 'post_only'
        ? { side, type: 'LIMIT_MAKER', clientOrderId, price: px, quantity: sz }
        : {
            side,
            type: 'LIMIT',
            clientOrderId,
            timeInForce: ordType === 'ioc' ? 'IOC' : ordType === 'fok' ? 'FOK' : 'GTC',
            price: px,
            quantity: sz,
          };
  }
  try {
    const { order: placed } = exchange.placeOrder(key.accountId, market.symbol, order);
    return { ordId: String(placed.orderId), clOrdId: clOrdIdOf(placed) };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    if (error.reason.kind === 'maxOpenOrders') throw okxError('51174', instId, String(market.maxNumOrders));
    throw okxRefusal(error, side === 'BUY' ? market.quote : market.base);
  }
};

type Entry = Record<string, string> & { sCode: string; sMsg: string };

/** A per-order outcome: sCode "0" and the ids, or the refusal's code and words (`sCode`/`sMsg`). */
const attempt = (run: () => Record<string, string>, ids: Record<string, string>, now: number): Entry => {
  try {
    return { ...ids, ...run(), ts: String(now), sCode: '0', sMsg: '', subCode: '' };
  } catch (error) {
    const refusal =
      error instanceof OkxError ? error : error instanceof Refusal ? okxRefusal(error) : undefined;
    if (!refusal) throw error;
    return { ...ids, ts: String(now), sCode: refusal.code, sMsg: refusal.msg, subCode: '' };
  }
};

/**
 * The order calls' answer (Overview › General info): HTTP 200 always; `code` "0" when every entry
 * succeeded, "1" ("Operation failed.") when none did, "2" when some did (a batch); the reasons are
 * each entry's sCode and sMsg. docs/venues/okx.md#errors
 */
const sendEntries = (reply: FastifyReply, entries: Entry[], inTime: number) => {
  const failed = entries.filter((e) => e.sCode !== '0').length;
  const code = failed === 0 ? '0' : failed === entries.length ? '1' : '2';
  const msg = code === '1' ? okxError('1').msg : '';
  const outTime = Date.now() * 1000;
  return reply
    .status(200)
    .type('application/json')
    .send(JSON.stringify({ code, msg, data: entries, inTime: String(inTime), outTime: String(outTime) }));
};

/**
 * A placement's answer after its orders were placed: sent, or spoiled by a fault (okx-faults.ts) —
 * dropped (the connection closes unanswered), late, or 50004 (OKX's "does not mean that the request
 * was successful or failed"). Only an answer that placed an order is spoiled.
 */
const answerPlacement = async (
  request: FastifyRequest,
  reply: FastifyReply,
  faults: OkxFaults,
  entries: Entry[],
  inTime: number,
) => {
  const fault = entries.some((e) => e.sCode === '0') ? faults.takeOrderFault() : undefined;
  const spoiled = await spoilOrderAnswer(request, reply, fault, () => okxError('50004'));
  if (spoiled) return spoiled;
  return sendEntries(reply, entries, inTime);
};

/** OKX's signed order calls: place (one or a batch) and cancel. docs/venues/okx.md#endpoints */
export const okxOrderRoutes = (app: FastifyInstance, exchange: SandboxExchange, faults: OkxFaults): void => {
  const placeEntry = (key: ApiKeyRecord, params: OkxParams): Entry => {
    const entry = attempt(
      () => placeOne(exchange, key, params),
      { clOrdId: params.get('clOrdId') ?? '', ordId: '', tag: params.get('tag') ?? '' },
      exchange.now(),
    );
    return entry.sCode === '0' ? { ...entry, sMsg: PLACED } : entry;
  };

  app.post('/api/v5/trade/order', async (request, reply) => {
    const inTime = Date.now() * 1000;
    const key = okxAuthenticate(exchange, request, 'trade');
    return answerPlacement(request, reply, faults, [placeEntry(key, okxParams(request))], inTime);
  });

  // Trade › Place multiple orders: a list of up to 20 orders, each answered on its own (ccxt's
  // createOrder sends a list of one).
  app.post('/api/v5/trade/batch-orders', async (request, reply) => {
    const inTime = Date.now() * 1000;
    const key = okxAuthenticate(exchange, request, 'trade');
    const body = jsonBody(request);
    if (!Array.isArray(body) || body.length === 0 || body.length > MAX_BATCH) throw okxError('51000', 'body');
    const entries = body.map((item) =>
      typeof item === 'object' && item !== null && !Array.isArray(item)
        ? placeEntry(key, objectParams(item as Record<string, unknown>))
        : {
            clOrdId: '',
            ordId: '',
            tag: '',
            ts: String(exchange.now()),
            ...errorEntry(okxError('51000', 'body')),
          },
    );
    return answerPlacement(request, reply, faults, entries, inTime);
  });

  // Trade › Cancel order: by ordId (wins) or clOrdId; an order filled, cancelled or never seen
  // answers 51400. A "0" says the cancel was accepted. docs/venues/okx.md#errors
  app.post('/api/v5/trade/cancel-order', async (request, reply) => {
    const inTime = Date.now() * 1000;
    const key = okxAuthenticate(exchange, request, 'trade');
    const params = okxParams(request);
    const entry = attempt(
      () => {
        const { market } = okxMarket(exchange, params.get('instId'));
        const order = findOrder(exchange, key.accountId, params, market.symbol);
        if (!order || !resting(order)) throw okxError('51400');
        exchange.engine.cancel(key.accountId, market, { orderId: order.orderId });
        return { ordId: String(order.orderId), clOrdId: clOrdIdOf(order) };
      },
      { clOrdId: params.get('clOrdId') ?? '', ordId: params.get('ordId') ?? '' },
      exchange.now(),
    );
    return sendEntries(reply, [entry], inTime);
  });
};

const errorEntry = (error: OkxError) => ({ sCode: error.code, sMsg: error.msg, subCode: '' });

/**
 * The account's order named by `ordId` (wins when both are given) or `clOrdId` (the latest with
 * it: a clOrdId may be reused once its order has ended). Neither: 50014 on ordId.
 * docs/venues/okx.md#client-order-ids
 */
export const findOrder = (
  exchange: SandboxExchange,
  accountId: number,
  params: OkxParams,
  symbol: string,
) => {
  const ordId = params.get('ordId');
  const clOrdId = params.get('clOrdId');
  if (!ordId && !clOrdId) throw okxError('50014', 'ordId');
  const own = exchange.engine.allOrders(accountId, symbol);
  if (ordId) return own.find((o) => String(o.orderId) === ordId);
  return own.findLast((o) => o.clientOrderId === clOrdId);
};
