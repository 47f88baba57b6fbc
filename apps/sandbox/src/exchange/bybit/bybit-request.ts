import { createHmac, timingSafeEqual } from 'node:crypto';
import { bybit } from '@gridbot/venues';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyRecord } from '../accounts';
import type { SandboxExchange } from '../sandbox-exchange';
import { clientIp } from '../signed-request';
import { bybitError } from './bybit-error';

/** A request's parameters: the query string of a GET, the JSON body of a POST (values as strings). */
export type BybitParams = { get(name: string): string | undefined };

const rawQuery = (request: FastifyRequest): string => {
  const url = request.raw.url ?? '';
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
};

/** The exact text a client signed: the query string (GET) or the JSON body (POST). docs/venues/bybit.md#endpoints */
const signedText = (request: FastifyRequest): string =>
  request.method === 'GET' ? rawQuery(request) : typeof request.body === 'string' ? request.body : '';

export const bybitParams = (request: FastifyRequest): BybitParams => {
  if (request.method === 'GET') {
    const query = new URLSearchParams(rawQuery(request));
    return { get: (name) => query.get(name) ?? undefined };
  }
  const text = typeof request.body === 'string' ? request.body.trim() : '';
  let body: unknown = {};
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      throw bybitError('10001');
    }
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bybitError('10001');
  const record = body as Record<string, unknown>;
  return {
    get: (name) => {
      const value = record[name];
      return value === undefined || value === null ? undefined : String(value);
    },
  };
};

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * Bybit's clock rule: a timestamp is taken when `server_time − recv_window <= timestamp <
 * server_time + 1000`, else 10002. The recv window defaults to the table's; Bybit documents no
 * maximum (the table's maxRecvWindowMs is unverified), so a longer one is not refused.
 * docs/venues/bybit.md#clock
 */
export const withinClock = (timestamp: number, recvWindow: number, now: number): boolean =>
  now - recvWindow <= timestamp && timestamp < now + bybit.clock.aheadToleranceMs;

/** HMAC-SHA256 (hex) of timestamp + key + recv window + payload. docs/venues/bybit.md#endpoints */
export const bybitSignature = (
  secret: string,
  timestamp: string,
  apiKey: string,
  recvWindow: string,
  payload: string,
): string =>
  createHmac('sha256', secret).update(`${timestamp}${apiKey}${recvWindow}${payload}`).digest('hex');

/**
 * A signed v5 request: X-BAPI-API-KEY names a known key (else 10003), X-BAPI-TIMESTAMP is within
 * the window (else 10002), X-BAPI-SIGN matches (else 10004); a key bound to other IPs answers
 * 10010 and a key that may not trade spot 10005 on a placement or cancel.
 * docs/venues/bybit.md#keys, #clock, #errors
 */
export const bybitAuthenticate = (
  exchange: SandboxExchange,
  request: FastifyRequest,
  need: 'read' | 'trade',
): { key: ApiKeyRecord; params: BybitParams } => {
  const apiKey = header(request, 'x-bapi-api-key');
  const key = apiKey ? exchange.accounts.key(apiKey) : undefined;
  if (!key || !apiKey) throw bybitError('10003');

  const timestamp = header(request, 'x-bapi-timestamp') ?? '';
  const recvWindowText = header(request, 'x-bapi-recv-window');
  const recvWindow = recvWindowText === undefined ? bybit.clock.defaultRecvWindowMs : Number(recvWindowText);
  if (!/^\d+$/.test(timestamp) || !Number.isFinite(recvWindow) || recvWindow <= 0) throw bybitError('10002');
  if (!withinClock(Number(timestamp), recvWindow, exchange.now())) throw bybitError('10002');

  const given = Buffer.from(header(request, 'x-bapi-sign') ?? '', 'hex');
  const expected = Buffer.from(
    bybitSignature(key.secret, timestamp, apiKey, recvWindowText ?? '', signedText(request)),
    'hex',
  );
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw bybitError('10004');

  if (key.ipWhitelist.length > 0 && !key.ipWhitelist.includes(clientIp(request))) throw bybitError('10010');
  // Spot trading is the key's permission (Binance's 30-day term for keys without IPs is Binance's
  // rule, not Bybit's). docs/venues/bybit.md#keys
  if (need === 'trade' && !key.permissions.spot) throw bybitError('10005');
  return { key, params: bybitParams(request) };
};
