import type { RequestShape } from '@gridbot/venues';

export type Signed = { url: string; method: string; body?: unknown };

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON body as sent (Bybit's and OKX's POSTs), or undefined for any other. */
export const jsonOf = (body: string): unknown => {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * The request as the venue's table reads it: path, parameters from the query and a form body, and
 * a JSON body (Bybit's and OKX's POSTs) both parsed and, for its top-level scalar fields, as
 * parameters (the side of an order is one: request-priority.ts).
 */
export const shapeOf = (signed: Signed): RequestShape => {
  const url = new URL(signed.url);
  const params = new URLSearchParams(url.search);
  const raw = typeof signed.body === 'string' ? signed.body.trim() : '';
  if (raw === '') return { method: signed.method, path: url.pathname, params };
  if (!raw.startsWith('{') && !raw.startsWith('[')) {
    for (const [k, v] of new URLSearchParams(raw)) params.append(k, v);
    return { method: signed.method, path: url.pathname, params };
  }
  const body = jsonOf(raw);
  if (isObject(body)) {
    for (const [k, v] of Object.entries(body)) {
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
        params.append(k, String(v));
    }
  }
  return { method: signed.method, path: url.pathname, params, ...(body === undefined ? {} : { body }) };
};
