import { createHmac, timingSafeEqual } from 'node:crypto';
import { okx } from '@gridbot/venues';
import type { FastifyRequest } from 'fastify';
import type { ApiKeyRecord } from '../accounts';
import type { SandboxExchange } from '../sandbox-exchange';
import { clientIp } from '../signed-request';
import { okxError } from './okx-error';

/** A request's parameters: the query string of a GET, one JSON object of a POST (values as strings). */
export type OkxParams = { get(name: string): string | undefined };

/** The path with its query exactly as sent: OKX signs it so (REST authentication › Signature). */
export const requestPath = (request: FastifyRequest): string => request.raw.url ?? '';

const rawQuery = (request: FastifyRequest): string => {
  const url = requestPath(request);
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at + 1);
};

const bodyText = (request: FastifyRequest): string => (typeof request.body === 'string' ? request.body : '');

/** A JSON object's fields as strings (numbers are taken, as OKX takes them). */
export const objectParams = (record: Record<string, unknown>): OkxParams => ({
  get: (name) => {
    const value = record[name];
    return value === undefined || value === null ? undefined : String(value);
  },
});

/** The POST body as JSON: an object, or (batch endpoints) a list of objects; else 51000. */
export const jsonBody = (request: FastifyRequest): unknown => {
  const text = bodyText(request).trim();
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw okxError('51000', 'body');
  }
};

export const okxParams = (request: FastifyRequest): OkxParams => {
  if (request.method === 'GET') {
    const query = new URLSearchParams(rawQuery(request));
    return { get: (name) => query.get(name) ?? undefined };
  }
  const body = jsonBody(request);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw okxError('51000', 'body');
  return objectParams(body as Record<string, unknown>);
};

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** OK-ACCESS-TIMESTAMP: ISO 8601 in UTC with milliseconds, e.g. 2020-12-08T09:08:57.715Z. */
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The timestamp in ms, or undefined when it is not OKX's form (50112). */
export const parseOkxTimestamp = (text: string): number | undefined => {
  if (!ISO_MS.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : undefined;
};

/**
 * OKX refuses a timestamp more than 30 s from its clock, either way (50102); there is no
 * recvWindow. docs/venues/okx.md#clock
 */
export const withinOkxClock = (timestamp: number, now: number): boolean =>
  timestamp >= now - okx.clock.defaultRecvWindowMs && timestamp <= now + okx.clock.aheadToleranceMs;

/**
 * Base64 of HMAC-SHA256 over timestamp + upper-case method + request path (with its query) + body,
 * keyed with the secret (REST authentication › Signature). docs/venues/okx.md#endpoints
 */
export const okxSignature = (
  secret: string,
  timestamp: string,
  method: string,
  path: string,
  body: string,
): string =>
  createHmac('sha256', secret).update(`${timestamp}${method.toUpperCase()}${path}${body}`).digest('base64');

const sameText = (given: string, expected: string): boolean => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

/**
 * A signed v5 request (REST authentication › Making requests): the four OK-ACCESS headers present
 * (50103, 50106, 50107, 50104), the timestamp in OKX's form (50112) and within 30 s (50102), the
 * key known (50111), its passphrase (50105) and signature (50113) right, the caller's IP on the
 * key's list if it has one (50110), and for a placement or cancel the Trade permission (50120).
 * `x-simulated-trading: 1` (demo trading) is taken like a live request: the sandbox is one
 * environment. docs/venues/okx.md#keys, #clock, #errors, #demo-trading
 */
export const okxAuthenticate = (
  exchange: SandboxExchange,
  request: FastifyRequest,
  need: 'read' | 'trade',
): ApiKeyRecord => {
  const apiKey = header(request, 'ok-access-key');
  if (!apiKey) throw okxError('50103');
  const sign = header(request, 'ok-access-sign');
  if (!sign) throw okxError('50106');
  const timestamp = header(request, 'ok-access-timestamp');
  if (!timestamp) throw okxError('50107');
  const passphrase = header(request, 'ok-access-passphrase');
  if (!passphrase) throw okxError('50104');

  const at = parseOkxTimestamp(timestamp);
  if (at === undefined) throw okxError('50112');
  if (!withinOkxClock(at, exchange.now())) throw okxError('50102');

  const key = exchange.accounts.key(apiKey);
  if (!key) throw okxError('50111');
  if (!key.passphrase || !sameText(passphrase, key.passphrase)) throw okxError('50105');
  const expected = okxSignature(
    key.secret,
    timestamp,
    request.method,
    requestPath(request),
    bodyText(request),
  );
  if (!sameText(sign, expected)) throw okxError('50113');

  const ip = clientIp(request);
  if (key.ipWhitelist.length > 0 && !key.ipWhitelist.includes(ip)) throw okxError('50110', ip);
  if (need === 'trade' && !key.permissions.spot) throw okxError('50120');
  return key;
};
