/**
 * The `err` serializer of every logger (docs/security.md#logs): an error as one compact object —
 * type, message, code, stack, its own small fields and its cause — never the request an HTTP
 * client attached to it. axios (tronweb) and similar clients hang the whole request config on the
 * error (headers with API keys, the socket, the answer with its headers again): a failed watcher
 * pass was a 5.7 KB line carrying TRON_API_KEY four times. Of such an error we keep what an
 * operator needs: status, code, method and the URL without its query.
 */
export type SerializedError = Record<string, unknown>;

/** Fields of HTTP client errors that carry requests, answers, sockets and headers. */
const DROPPED = new Set([
  'config',
  'request',
  'response',
  'headers',
  'options',
  'socket',
  'agent',
  'req',
  'res',
  'client',
  'connection',
]);
/** Taken care of above or below. */
const OWN = new Set(['name', 'message', 'stack', 'cause', 'errors']);
const MAX_STRING = 2000;
const MAX_NESTED_JSON = 1000;
const MAX_DEPTH = 3;

const clip = (text: string): string =>
  text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}… (${text.length} characters)` : text;

/** A URL without credentials or query: a key in either stays out of the log. */
export const urlWithoutSecrets = (url: string): string => {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return url.split('?')[0] ?? '';
  }
};

/** A stack without its first line(s) when they only repeat the message: the line says it once. */
const framesOf = (stack: string, message: string): string => {
  const at = stack.indexOf('\n    at ');
  if (at < 0 || !stack.slice(0, at).includes(message)) return stack;
  return stack.slice(at + 1);
};

type HttpClientError = {
  config?: { url?: unknown; baseURL?: unknown; method?: unknown };
  response?: { status?: unknown };
  status?: unknown;
};

/** axios (tronweb's client) and its look-alikes: an error with the request config attached. */
const httpFacts = (error: HttpClientError): SerializedError | undefined => {
  const config = error.config;
  if (!config || typeof config !== 'object') return undefined;
  const facts: SerializedError = {};
  const status = error.response?.status ?? error.status;
  if (typeof status === 'number') facts.status = status;
  if (typeof config.method === 'string') facts.method = config.method.toUpperCase();
  const path = typeof config.url === 'string' ? config.url : '';
  const base = typeof config.baseURL === 'string' ? config.baseURL : '';
  if (path || base) {
    const absolute = /^[a-z]+:\/\//i.test(path)
      ? path
      : `${base.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;
    facts.url = urlWithoutSecrets(absolute);
  }
  return facts;
};

const isPlain = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value);
  return Array.isArray(value) || proto === Object.prototype || proto === null;
};

/** A small plain object or array (a Prisma error's `meta`, grammY's `parameters`), else nothing. */
const smallJson = (value: object): unknown => {
  try {
    const text = JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? v.toString() : v));
    return text !== undefined && text.length <= MAX_NESTED_JSON ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
};

export const serializeError = (error: unknown, depth = 0): SerializedError => {
  if (typeof error !== 'object' || error === null) return { message: clip(String(error)) };
  const fields = error as Record<string, unknown> & HttpClientError;
  const out: SerializedError = {
    type: (error as Error).name ?? error.constructor?.name ?? 'Object',
    message: clip(typeof fields.message === 'string' ? fields.message : String(fields.message ?? '')),
  };
  const http = httpFacts(fields);
  if (http) Object.assign(out, http);
  // An HTTP client's stack is its own internals; anything else keeps it (bugs need it).
  else if (typeof fields.stack === 'string')
    out.stack = clip(framesOf(fields.stack, String(fields.message ?? '')));
  for (const [key, value] of Object.entries(fields)) {
    if (key in out || DROPPED.has(key) || OWN.has(key) || key.startsWith('_')) continue;
    if (value === null || ['number', 'boolean'].includes(typeof value)) out[key] = value;
    else if (typeof value === 'string') out[key] = clip(value);
    else if (typeof value === 'bigint') out[key] = value.toString();
    else if (value instanceof Error) {
      if (depth < MAX_DEPTH) out[key] = serializeError(value, depth + 1);
    } else if (typeof value === 'object' && isPlain(value)) {
      const small = smallJson(value);
      if (small !== undefined) out[key] = small;
    }
  }
  const cause = fields.cause;
  if (cause !== undefined && depth < MAX_DEPTH) out.cause = serializeError(cause, depth + 1);
  if (error instanceof AggregateError && depth < MAX_DEPTH) {
    out.errors = error.errors.slice(0, 5).map((inner) => serializeError(inner, depth + 1));
  }
  return out;
};
