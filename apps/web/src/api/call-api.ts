import type { EndpointDefinition, ResponseOf } from '@gridbot/contracts';
import type { z } from 'zod';
import { readToken } from '../session/auth-cookies';
import { takeEarlyAnswer } from '../session/early-start';
import { ApiError, apiErrorFromResponse, retryAfterMsOf } from './api-error';
import { createRequestGuard, type GuardLimit } from './request-guard';
import { requestPath } from './request-url';

type Field<T> = T extends z.ZodType ? z.input<T> : never;
/** A slot is absent without a schema, optional when `{}` satisfies it, else required. */
type Slot<K extends string, T> = [T] extends [never]
  ? { [P in K]?: never }
  : Record<string, never> extends T
    ? { [P in K]?: T }
    : { [P in K]: T };

export type CallInput<E extends EndpointDefinition> = Slot<'params', Field<E['params']>> &
  Slot<'query', Field<E['query']>> &
  Slot<'headers', Field<E['headers']>> &
  Slot<'body', Field<E['body']>>;

export type CallOptions = { signal?: AbortSignal };

const apiBase = (import.meta.env.VITE_API_BASE_URL ?? '').replace(/\/$/, '');

/** Calls without a limit of their own in the contract: a runaway loop stops here, not at the server. */
const DEFAULT_LIMIT: GuardLimit = { max: 10, windowMs: 1000 };
const guard = createRequestGuard();
/**
 * The guard keeps a little more than the server's window between two calls, so a call the guard
 * lets through never reaches the server early (its window starts when the first call arrives).
 */
const WINDOW_MARGIN_MS = 500;

let onUnauthorized: (() => void) | undefined;
/** The session registers what a 401 on a signed-in call does (docs/product.md#behaviour: clear token, go to login). */
export const setUnauthorizedHandler = (handler: () => void) => {
  onUnauthorized = handler;
};

export const resetRequestGuard = () => guard.reset();

/** The least time between two calls of `endpoint` that the guard lets through (its window). */
export const guardWindowOf = (endpoint: EndpointDefinition): number =>
  (endpoint.rateLimit ?? DEFAULT_LIMIT).windowMs + WINDOW_MARGIN_MS;

export { fillPath, queryString } from './request-url';

const readJson = async (response: Response): Promise<unknown> => {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/**
 * The one way the app talks to the API: fills the contract's path, sends the docs/product.md#calls headers and
 * the bearer token, parses a 2xx body with the contract's response schema and turns everything
 * else into the error object.
 */
export const callApi = async <E extends EndpointDefinition>(
  endpoint: E,
  input: CallInput<E> = {} as CallInput<E>,
  options: CallOptions = {},
): Promise<ResponseOf<E>> => {
  const {
    params,
    query,
    body,
    headers: own,
  } = input as {
    params?: Record<string, unknown>;
    query?: Record<string, unknown>;
    headers?: Record<string, string | undefined>;
    body?: unknown;
  };
  // Headers the contract declares, e.g. a money move's Idempotency-Key (docs/wallet.md#retries).
  const declared = (input as { headers?: Record<string, unknown> }).headers ?? {};
  const answered = guard.check(endpoint.id, {
    max: (endpoint.rateLimit ?? DEFAULT_LIMIT).max,
    windowMs: guardWindowOf(endpoint),
  });

  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Requested-With': 'XMLHttpRequest',
  };
  for (const [name, value] of Object.entries(declared)) {
    if (typeof value === 'string') headers[name] = value;
  }
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  // Headers the contract reads (an Idempotency-Key): only the ones it declares.
  for (const [name, value] of Object.entries(own ?? {})) {
    if (value !== undefined && endpoint.headers?.shape[name]) headers[name] = value;
  }

  const url = `${apiBase}${requestPath(endpoint.path, { params, query })}`;
  let response: Response;
  try {
    // The page may have sent this very request already (docs/performance.md#web): its answer is this call's.
    const sent = body === undefined ? await takeEarlyAnswer({ method: endpoint.method, url, headers }) : null;
    response =
      sent ??
      (await fetch(url, {
        method: endpoint.method,
        headers,
        credentials: 'same-origin',
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      }));
  } catch (error) {
    answered();
    if (options.signal?.aborted) throw error;
    throw new ApiError({
      status: 500,
      code: 'NETWORK',
      message: error instanceof Error ? error.message : 'Network error',
    });
  }

  answered();
  return readApiResponse(endpoint, response);
};

/**
 * A response of `endpoint` as the app sees every answer: a 2xx body parsed with the contract's
 * schema, anything else the error object (a 401 on a signed-in call signs the user out).
 */
export const readApiResponse = async <E extends EndpointDefinition>(
  endpoint: E,
  response: Response,
): Promise<ResponseOf<E>> => {
  const json = await readJson(response);
  if (!response.ok) {
    const failure = apiErrorFromResponse(
      response.status,
      json,
      retryAfterMsOf(response.headers.get('retry-after')),
    );
    if (failure.status === 401 && endpoint.auth) onUnauthorized?.();
    throw failure;
  }
  const parsed = endpoint.response.safeParse(json);
  if (!parsed.success) {
    throw new ApiError({
      status: 500,
      code: 'BAD_RESPONSE',
      message: `Unexpected answer from ${endpoint.id}`,
      detail: parsed.error.message,
    });
  }
  return parsed.data as ResponseOf<E>;
};
