import type { EndpointDefinition } from '@gridbot/contracts';
import type { InjectOptions } from 'fastify';
import { HugeString } from './hostile-values';

/** Who the request claims to be (forged-tokens.ts turns each into an Authorization header). */
export const AUTH_VARIANTS = [
  'attacker',
  'missing',
  'empty-bearer',
  'basic-scheme',
  'garbage',
  'expired',
  'other-key',
  'alg-none',
  'tampered-claims',
  'unknown-user',
  'huge',
] as const;
export type AuthVariant = (typeof AUTH_VARIANTS)[number];

export type FuzzBody =
  | { kind: 'absent' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string | undefined; text: string };

/** One request as data: what fast-check generates, shrinks and prints. */
export type FuzzRequest = {
  auth: AuthVariant;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: FuzzBody;
};

/** Query values: repeated keys for arrays, a bare key for null, JSON for objects, `-0` kept. */
const renderScalar = (value: unknown): string => {
  if (typeof value === 'string' || value instanceof HugeString) return String(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
};

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Percent-encodes; a lone surrogate goes out as the raw bytes a hostile client would send. */
const encode = (text: string) => {
  try {
    return encodeURIComponent(text);
  } catch {
    const wellFormed = text.replace(LONE_SURROGATE, '\uFFFD');
    return encodeURIComponent(wellFormed).replaceAll('%EF%BF%BD', '%ED%A0%80');
  }
};

const queryString = (query: Record<string, unknown>) => {
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const name = encode(key);
    if (value === null) pairs.push(name);
    else if (Array.isArray(value)) {
      for (const item of value) pairs.push(`${name}=${encode(renderScalar(item))}`);
    } else pairs.push(`${name}=${encode(renderScalar(value))}`);
  }
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
};

/** `/portfolio/:coin` with the request's params; a missing one leaves an empty segment. */
const pathOf = (path: string, params: Record<string, unknown>) =>
  path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name];
    return value === undefined ? '' : encode(renderScalar(value));
  });

/** Header values a real HTTP parser would let through (no control characters, no NUL). */
const headerValue = (value: unknown) => renderScalar(value).replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');

/** The request as `app.inject` options; `authorization` comes from the auth variant. */
export const toInject = (
  endpoint: EndpointDefinition,
  request: FuzzRequest,
  authorization: string | undefined,
  remoteAddress: string,
): InjectOptions => {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [key, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers[key] = headerValue(value);
  }
  if (authorization !== undefined) headers.authorization = authorization;
  const base: InjectOptions = {
    method: endpoint.method,
    url: `${pathOf(endpoint.path, request.params)}${queryString(request.query)}`,
    headers,
    remoteAddress,
  };
  const { body } = request;
  if (body.kind === 'json') {
    return {
      ...base,
      payload: JSON.stringify(body.value) ?? 'null',
      headers: { ...headers, 'content-type': 'application/json' },
    };
  }
  if (body.kind === 'raw') {
    const typed = body.contentType === undefined ? headers : { ...headers, 'content-type': body.contentType };
    return { ...base, payload: body.text, headers: typed };
  }
  return base;
};

/** A short, printable description of a request for failure messages. */
export const describeInject = (options: InjectOptions) => {
  const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);
  const payload = typeof options.payload === 'string' ? cut(options.payload) : '';
  const headers = { ...(options.headers as Record<string, string>) };
  for (const [key, value] of Object.entries(headers)) headers[key] = cut(value);
  return `${options.method} ${cut(String(options.url))}\nheaders: ${JSON.stringify(headers)}\nbody: ${payload}`;
};
