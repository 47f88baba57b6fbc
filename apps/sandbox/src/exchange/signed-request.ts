import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { type ApiKeyRecord, canTradeNow } from './accounts';
import { binanceErrors } from './binance-error';
import type { SandboxExchange } from './sandbox-exchange';

/** A request's parameters, from its query string or its form body (never both, see rawParams). */
export type Params = URLSearchParams;

const rawQuery = (request: FastifyRequest): string => {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
};

const rawBody = (request: FastifyRequest): string => (typeof request.body === 'string' ? request.body : '');

/**
 * The raw parameter text of a request, from the one place it may come from. Binance signs
 * query string + body concatenated with no separator, so with parameters in both a client (or
 * anyone on the way) could move the split point, even into the middle of a value, and the
 * signature would still match different parameters. Binance discourages mixing; we refuse it, and
 * a parameter sent twice, so a signature covers exactly one reading of the request.
 */
const rawParams = (request: FastifyRequest): string => {
  const query = rawQuery(request);
  const body = rawBody(request);
  const inQuery = new URLSearchParams(query).size > 0;
  const inBody = new URLSearchParams(body).size > 0;
  if (inQuery && inBody) throw binanceErrors.paramsInQueryAndBody();
  return inBody ? body : query;
};

export const requestParams = (request: FastifyRequest): Params => {
  const params = new URLSearchParams(rawParams(request));
  if (new Set(params.keys()).size !== params.size) throw binanceErrors.duplicateParam();
  return params;
};

const withoutSignature = (raw: string): string =>
  raw
    .split('&')
    .filter((part) => part !== '' && !part.startsWith('signature='))
    .join('&');

export const API_KEY = /^[A-Za-z0-9]{1,128}$/;
const MAX_RECV_WINDOW = 60_000;

/**
 * The timestamp, recvWindow and signature rules shared by REST and the WebSocket API: `payload` is
 * the exact text the client signed (without `signature`), `now` the exchange's clock (which the
 * control API may skew from this host's: Binance spot API docs, rest-api.md#timing-security).
 */
export const checkSignature = (key: ApiKeyRecord, params: Params, payload: string, now: number): void => {
  const timestamp = params.get('timestamp');
  if (!timestamp || !/^\d+$/.test(timestamp)) throw binanceErrors.mandatory('timestamp');
  const recvWindow = Number(params.get('recvWindow') ?? 5000);
  if (!Number.isFinite(recvWindow) || recvWindow > MAX_RECV_WINDOW) throw binanceErrors.recvWindowTooLarge();
  if (Number(timestamp) >= now + 1000) throw binanceErrors.timestampAhead();
  if (now - Number(timestamp) > recvWindow) throw binanceErrors.timestampOutside();

  const signature = params.get('signature');
  if (!signature) throw binanceErrors.mandatory('signature');
  const expected = createHmac('sha256', key.secret).update(payload).digest();
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw binanceErrors.badSignature();
};

/** The caller's address as the sandbox sees it (IPv4 without the IPv6-mapped prefix). */
export const clientIp = (request: FastifyRequest): string => request.ip.replace(/^::ffff:/, '');

/**
 * A key restricted to trusted IPs answers only them: any other address gets -2015, reads included
 * (Binance, "Invalid API-key, IP, or permissions for action.", errors.md#-2015).
 */
export const assertKeyAccess = (key: ApiKeyRecord, ip: string): void => {
  if (key.ipWhitelist.length > 0 && !key.ipWhitelist.includes(ip)) throw binanceErrors.apiKeyRejected();
};

/**
 * Binance's SIGNED endpoint rules: X-MBX-APIKEY names a known key; `signature` is
 * HMAC-SHA256(secret, the parameters as sent, without `signature`) in hex — query string or body,
 * never both (see rawParams); `timestamp` is within `recvWindow` (default
 * 5000 ms, at most 60000) behind the server's clock and at most 1000 ms ahead of it.
 */
export const authenticate = (
  exchange: SandboxExchange,
  request: FastifyRequest,
  need: 'read' | 'trade',
): { key: ApiKeyRecord; params: Params } => {
  const header = request.headers['x-mbx-apikey'];
  const apiKey = Array.isArray(header) ? header[0] : header;
  if (!apiKey || !API_KEY.test(apiKey)) throw binanceErrors.apiKeyFormat();
  const key = exchange.accounts.key(apiKey);
  // Binance's /sapi endpoints name an unknown key (-2008); its /api/v3 ones answer -2015.
  if (!key) {
    throw request.url.startsWith('/sapi/') ? binanceErrors.apiKeyUnknown() : binanceErrors.apiKeyRejected();
  }
  assertKeyAccess(key, clientIp(request));

  const params = requestParams(request);
  checkSignature(key, params, withoutSignature(rawParams(request)), exchange.now());

  // A key without spot trading can still read; placing and cancelling answer -2015, as on Binance.
  // So does a key whose 30-day term ended: Binance unticks its trading permission (accounts.ts).
  if (need === 'trade' && !canTradeNow(key)) throw binanceErrors.apiKeyRejected();
  return { key, params };
};
