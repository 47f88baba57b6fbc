import { randomBytes } from 'node:crypto';
import { binanceErrors } from './binance-error';
import type { OrderRequest, TimeInForce } from './matching-engine';
import { parseDecimalParam } from './money';
import type { Params } from './signed-request';
import type { NewOrderRespType } from './wire';

const CLIENT_ORDER_ID = /^[.A-Z:/a-z0-9_-]{1,36}$/;
const CLIENT_ORDER_ID_RANGE = '^[\\.A-Z\\:/a-z0-9_-]{1,36}$';

/** Binance generates a 22-character id when the client sends none. */
export const generatedClientOrderId = (): string => randomBytes(16).toString('base64url').slice(0, 22);

export const required = (params: Params, name: string): string => {
  const value = params.get(name);
  if (value === null || value === '') throw binanceErrors.mandatory(name);
  return value;
};

export const clientOrderIdParam = (params: Params, name: string): string | undefined => {
  const value = params.get(name);
  if (value === null || value === '') return undefined;
  if (!CLIENT_ORDER_ID.test(value)) throw binanceErrors.illegalChars(name, CLIENT_ORDER_ID_RANGE);
  return value;
};

/** orderId or origClientOrderId, as GET and DELETE /api/v3/order take them. */
export const orderRefParams = (params: Params): { orderId?: number; clientOrderId?: string } => {
  const orderId = params.get('orderId');
  if (orderId) {
    if (!/^\d+$/.test(orderId)) throw binanceErrors.illegalChars('orderId', '^[0-9]{1,20}$');
    return { orderId: Number(orderId) };
  }
  const clientOrderId = clientOrderIdParam(params, 'origClientOrderId');
  if (!clientOrderId) throw binanceErrors.eitherParam('origClientOrderId', 'orderId');
  return { clientOrderId };
};

const optionalDecimal = (params: Params, name: string) => {
  const raw = params.get(name);
  return raw === null || raw === '' ? undefined : parseDecimalParam(name, raw);
};

/**
 * POST /api/v3/order parameters (rest-api.md "New order", its table of mandatory parameters per
 * type): LIMIT (`timeInForce` GTC, IOC or FOK), LIMIT_MAKER (no `timeInForce`: it is post-only) and
 * MARKET (`quantity` or `quoteOrderQty`).
 */
export const newOrderParams = (params: Params): { request: OrderRequest; respType: NewOrderRespType } => {
  const side = required(params, 'side');
  if (side !== 'BUY' && side !== 'SELL') throw binanceErrors.badSide();
  const type = required(params, 'type');
  if (type !== 'LIMIT' && type !== 'LIMIT_MAKER' && type !== 'MARKET') throw binanceErrors.badOrderType();
  const price = optionalDecimal(params, 'price');
  const quantity = optionalDecimal(params, 'quantity');
  const quoteOrderQty = optionalDecimal(params, 'quoteOrderQty');
  const timeInForce = timeInForceParam(params, type);
  if (type !== 'MARKET') {
    if (!quantity) throw binanceErrors.mandatory('quantity');
    if (!price) throw binanceErrors.mandatory('price');
    if (quoteOrderQty) throw binanceErrors.notRequired('quoteOrderQty');
  } else {
    if (price) throw binanceErrors.notRequired('price');
    if (!quantity && !quoteOrderQty) throw binanceErrors.eitherParam('quantity', 'quoteOrderQty');
    if (quantity && quoteOrderQty) throw binanceErrors.notRequired('quoteOrderQty');
  }
  const respType = params.get('newOrderRespType') ?? 'FULL';
  if (respType !== 'ACK' && respType !== 'RESULT' && respType !== 'FULL') {
    throw binanceErrors.illegalChars('newOrderRespType', 'ACK|RESULT|FULL');
  }
  const clientOrderId = clientOrderIdParam(params, 'newClientOrderId') ?? generatedClientOrderId();
  return {
    request: {
      side,
      type,
      clientOrderId,
      price,
      quantity,
      quoteOrderQty,
      ...(timeInForce ? { timeInForce } : {}),
    },
    respType,
  };
};

/** LIMIT needs one of enums.md's times in force; the other types take none. */
const timeInForceParam = (params: Params, type: OrderRequest['type']): TimeInForce | undefined => {
  const value = params.get('timeInForce');
  if (type !== 'LIMIT') {
    if (value) throw binanceErrors.notRequired('timeInForce');
    return undefined;
  }
  if (!value) throw binanceErrors.mandatory('timeInForce');
  if (value !== 'GTC' && value !== 'IOC' && value !== 'FOK') throw binanceErrors.badTimeInForce();
  return value;
};

/** limit: default 500, at most 1000 (Binance's list endpoints). */
export const limitParam = (params: Params): number => {
  const raw = params.get('limit');
  if (raw === null) return 500;
  if (!/^\d+$/.test(raw)) throw binanceErrors.illegalChars('limit', '^[0-9]{1,4}$');
  return Math.min(Math.max(Number(raw), 1), 1000);
};

export const integerParam = (params: Params, name: string): number | undefined => {
  const raw = params.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) throw binanceErrors.illegalChars(name, '^[0-9]{1,20}$');
  return Number(raw);
};
