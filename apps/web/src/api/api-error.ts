import { ZErrorBody } from '@gridbot/contracts';

export type ApiIssue = { path: string; message: string };

/**
 * The spec's error object (§3, §8): `error: true`, `status` (default 500) and `message`, plus the
 * server's stable `code` and its human `detail`. Thrown by `callApi`, so it is also an Error.
 */
export class ApiError extends Error {
  readonly error = true as const;
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly issues: readonly ApiIssue[];
  /** The instant a `{until}` text names (a locked address, a freeze), ISO 8601. */
  readonly until: string | undefined;
  /** How long the server asked to wait before asking again (its Retry-After), in ms. */
  readonly retryAfterMs: number | undefined;

  constructor(fields: {
    status?: number;
    code?: string;
    message?: string;
    detail?: string;
    issues?: readonly ApiIssue[];
    until?: string;
    retryAfterMs?: number;
  }) {
    super(fields.message || 'Internal server error');
    this.name = 'ApiError';
    this.status = fields.status ?? 500;
    this.code = fields.code ?? 'INTERNAL';
    this.detail = fields.detail ?? '';
    this.issues = fields.issues ?? [];
    this.until = fields.until;
    this.retryAfterMs = fields.retryAfterMs;
  }

  /** Plain error object, e.g. for logging. */
  toJSON() {
    return {
      error: this.error,
      status: this.status,
      code: this.code,
      message: this.message,
      detail: this.detail,
    };
  }
}

export const isApiError = (value: unknown): value is ApiError => value instanceof ApiError;

/** A Retry-After header (seconds, or an HTTP date) as a wait in ms; undefined when absent or unreadable. */
export const retryAfterMsOf = (header: string | null, now: number = Date.now()): number | undefined => {
  if (!header) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
};

/** Builds the error object of a non-2xx answer from whatever body came back. */
export const apiErrorFromResponse = (status: number, body: unknown, retryAfterMs?: number): ApiError => {
  const wait = retryAfterMs === undefined ? {} : { retryAfterMs };
  const parsed = ZErrorBody.safeParse(body);
  if (parsed.success) {
    const { code, message, detail, issues, until } = parsed.data;
    return new ApiError({
      status: parsed.data.status || status,
      code,
      message,
      detail,
      ...(issues ? { issues } : {}),
      ...(until ? { until } : {}),
      ...wait,
    });
  }
  const message =
    typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
      ? (body as { message: string }).message
      : undefined;
  return new ApiError({
    status: status || 500,
    code: `HTTP_${status || 500}`,
    ...(message ? { message } : {}),
    ...wait,
  });
};

/** Any thrown value as the error object (network failures become status 500). */
export const toApiError = (error: unknown): ApiError => {
  if (isApiError(error)) return error;
  if (error instanceof Error) return new ApiError({ code: 'NETWORK', message: error.message });
  return new ApiError({ code: 'UNKNOWN', message: String(error) });
};
