import type { ErrorCode } from '@gridbot/contracts';
import { binance, type ErrorOutcome, VENUE_TABLES, type VenueSpec } from '@gridbot/venues';
import {
  AuthenticationError,
  BadSymbol,
  DDoSProtection,
  DuplicateOrderId,
  InsufficientFunds,
  InvalidNonce,
  InvalidOrder,
  MarketClosed,
  NetworkError,
  NotSupported,
  OrderNotFound,
  PermissionDenied,
  RateLimitExceeded,
} from 'ccxt';

/**
 * Stable codes of adapter failures. Each is also a code of the error catalogue
 * (packages/contracts errors.ts, docs/errors.md), so an adapter failure that reaches a user maps to
 * its status and localized text as it is.
 */
export const EXCHANGE_ERROR_CODES = [
  'API_KEY_INVALID',
  'API_KEY_NO_SPOT',
  'API_KEY_ACCOUNT_TYPE',
  'API_KEY_WITHDRAW_ENABLED',
  'API_KEY_IP_NOT_ALLOWED',
  'API_KEY_TRADING_EXPIRED',
  'EXCHANGE_UNAVAILABLE',
  'COIN_NOT_LISTED',
  'ORDER_BELOW_EXCHANGE_MIN',
  'EXCHANGE_INSUFFICIENT_BALANCE',
  'ORDER_REJECTED',
  'EXCHANGE_UNSUPPORTED',
] as const satisfies readonly ErrorCode[];

export type ExchangeErrorCode = (typeof EXCHANGE_ERROR_CODES)[number];

export class ExchangeError extends Error {
  override name = 'ExchangeError';

  /** The catalogue code (every adapter code is one). */
  get catalogueCode(): ErrorCode {
    return this.code;
  }

  constructor(
    readonly code: ExchangeErrorCode,
    message: string,
    readonly options: {
      retryable?: boolean;
      /** The exchange's own error code and message, when its answer carried them (Binance's body). */
      exchangeCode?: string;
      exchangeMessage?: string;
      /** Nothing may be sent before `wait.resumeAt` (a 429/418 or a full budget: docs/grid.md#request-budget). */
      wait?: VenueWait;
      cause?: unknown;
    } = {},
  ) {
    super(message, { cause: options.cause });
  }

  /** How long to wait before trying again (0 when the error carries no wait). */
  get retryAfterMs(): number {
    return this.options.wait ? Math.max(0, this.options.wait.resumeAt - Date.now()) : 0;
  }

  /** Trying again later may succeed (network, rate limit, clock). */
  get retryable(): boolean {
    return this.options.retryable ?? false;
  }
}

export const isExchangeError = (error: unknown): error is ExchangeError => error instanceof ExchangeError;

/**
 * A wait the venue or the budget asked for: until `resumeAt` (epoch ms) nothing goes to the venue
 * from this IP (`scope: 'ip'`) or for this account (`'account'`: its ORDERS pools). `closed`: the
 * venue answered 429/418/-1015; `full`: our budget's window has no room for this priority.
 */
export type VenueWait = { resumeAt: number; scope: 'ip' | 'account'; reason: 'closed' | 'full' };

/** The wait an error carries, if any (a job is deferred until then, never retried sooner). */
export const venueWaitOf = (error: unknown): VenueWait | undefined =>
  error instanceof ExchangeError ? error.options.wait : undefined;

/**
 * What a failed call means for us:
 * - unknown: the request may or may not have been executed (timeout, dropped connection, 5xx);
 * - duplicate: the exchange already has an open order with this client id;
 * - not-found: no such order;
 * - clock: our timestamp was outside the exchange's window (not executed);
 * - throttled: rate limited (not executed);
 * - failed: a definite answer, mapped to `code`.
 */
export type Failure =
  | {
      kind: 'unknown' | 'duplicate' | 'not-found' | 'clock' | 'throttled';
      message: string;
      exchangeCode?: string;
      exchangeMessage?: string;
    }
  | {
      kind: 'failed';
      code: ExchangeErrorCode;
      message: string;
      exchangeCode?: string;
      exchangeMessage?: string;
    };

const BINANCE_BODY = /\{"code":(-?\d+),"msg":"((?:[^"\\]|\\.)*)"/;

/** ccxt puts Binance's body in the message: `binance {"code":-2010,"msg":"Duplicate order sent."}`. */
const binanceCode = (message: string): { code: string; msg: string } | undefined => {
  const match = BINANCE_BODY.exec(message);
  return match ? { code: match[1]!, msg: unescapeJson(match[2]!) } : undefined;
};

/**
 * A message ccxt throws without the body it came in (`binance Account has insufficient balance for
 * requested action.`): the code the venue sends it under is the one whose documented words it is
 * (the venue's table, e.g. Binance -2010: docs/venues/binance.md#errors), so the exchange's own code
 * still reaches the screens.
 */
const exactMessageCode = (spec: VenueSpec, message: string): { code: string; msg: string } | undefined => {
  const prefix = `${spec.id} `;
  if (!message.startsWith(prefix)) return undefined;
  const msg = message.slice(prefix.length);
  const found = Object.entries(spec.errors.codes).find(([, entry]) => entry.message === msg);
  return found ? { code: found[0], msg } : undefined;
};

/** `msg` as the venue wrote it, its JSON escapes undone (kept as found when they are malformed). */
const unescapeJson = (msg: string): string => {
  try {
    return JSON.parse(`"${msg}"`) as string;
  } catch {
    return msg;
  }
};

/** The catalogue code of each refusal the venues' tables name. */
const REFUSALS: Readonly<
  Record<
    Exclude<ErrorOutcome, 'unknown' | 'throttled' | 'clock' | 'duplicate' | 'not-found'>,
    ExchangeErrorCode
  >
> = {
  'key-invalid': 'API_KEY_INVALID',
  permission: 'API_KEY_NO_SPOT',
  'not-listed': 'COIN_NOT_LISTED',
  'market-closed': 'ORDER_REJECTED',
  'below-minimum': 'ORDER_BELOW_EXCHANGE_MIN',
  'insufficient-balance': 'EXCHANGE_INSUFFICIENT_BALANCE',
  rejected: 'ORDER_REJECTED',
  unavailable: 'EXCHANGE_UNAVAILABLE',
};

/**
 * A venue's own code, read from its body (ccxt maps codes differently per URL, live vs. local), by
 * the venue's table: its outcome, by the message's words where one code covers several causes.
 */
const fromVenueCode = (spec: VenueSpec, code: string, msg: string, message: string): Failure => {
  const known = { message, exchangeCode: code, exchangeMessage: msg };
  const entry = spec.errors.codes[code];
  const outcome = entry
    ? (entry.byMessage?.find((rule) => rule.pattern.test(msg))?.outcome ?? entry.outcome)
    : (spec.errors.otherwise?.(code) ?? 'unavailable');
  switch (outcome) {
    case 'unknown':
    case 'throttled':
    case 'clock':
    case 'duplicate':
    case 'not-found':
      return { kind: outcome, ...known };
    default:
      return { kind: 'failed', code: REFUSALS[outcome], ...known };
  }
};

/**
 * ccxt puts a venue's answer in the message after the venue's id: `bybit {"retCode":10006,…}`,
 * `okx {"code":"1","data":[{"sCode":"51008","sMsg":"…"}],"msg":"…"}`. The venue's table says where
 * its code and words are (docs/venues/<venue>.md#errors); a placement's own code (OKX `sCode`)
 * stands before a batch's general one.
 */
const venueBody = (message: string): { spec: VenueSpec; code: string; msg: string } | undefined => {
  const space = message.indexOf(' ');
  const spec = space > 0 ? VENUE_TABLES[message.slice(0, space)] : undefined;
  const start = message.indexOf('{', space);
  if (!spec || start < 0) return undefined;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(message.slice(start)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { codeField, messageField, orderCodeField, orderMessageField, okCode } = spec.errors;
  const first = Array.isArray(body.data) ? (body.data[0] as Record<string, unknown> | undefined) : undefined;
  const orderCode = orderCodeField && first ? first[orderCodeField] : undefined;
  if (orderCode !== undefined && orderCode !== null && String(orderCode) !== okCode) {
    const orderMessage = orderMessageField ? first?.[orderMessageField] : undefined;
    return { spec, code: String(orderCode), msg: typeof orderMessage === 'string' ? orderMessage : '' };
  }
  const code = body[codeField];
  if (code === undefined || code === null || String(code) === okCode) return undefined;
  const msg = body[messageField];
  return { spec, code: String(code), msg: typeof msg === 'string' ? msg : '' };
};

/** Classifies anything a ccxt call threw. Binance codes first, then ccxt's error classes for other exchanges. */
export const classifyFailure = (error: unknown): Failure => {
  if (error instanceof ExchangeError) {
    // Not sent, or refused before execution: the caller must wait, not resend.
    if (error.options.wait) return { kind: 'throttled', message: error.message };
    return { kind: 'failed', code: error.code, message: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  const binanceAnswer = binanceCode(message) ?? exactMessageCode(binance, message);
  if (binanceAnswer) return fromVenueCode(binance, binanceAnswer.code, binanceAnswer.msg, message);
  const answer = venueBody(message);
  if (answer) return fromVenueCode(answer.spec, answer.code, answer.msg, message);
  if (error instanceof InvalidNonce) return { kind: 'clock', message };
  // ccxt answers Binance's "Market is closed." (a symbol outside TRADING) with its own class and
  // message, without the body: keep the exchange's words for the activity log.
  if (error instanceof MarketClosed) {
    return { kind: 'failed', code: 'ORDER_REJECTED', message, exchangeMessage: 'Market is closed.' };
  }
  // Both are ccxt's "over a limit": DDoSProtection (Binance's 429/418) and its sibling
  // RateLimitExceeded (Bybit's 10006, OKX's 50011), neither a subclass of the other.
  if (error instanceof DDoSProtection || error instanceof RateLimitExceeded)
    return { kind: 'throttled', message };
  // RequestTimeout, ExchangeNotAvailable and plain network failures: the request may have landed.
  if (error instanceof NetworkError) return { kind: 'unknown', message };
  if (error instanceof DuplicateOrderId) return { kind: 'duplicate', message };
  if (error instanceof OrderNotFound) return { kind: 'not-found', message };
  if (error instanceof AuthenticationError || error instanceof PermissionDenied) {
    return { kind: 'failed', code: 'API_KEY_INVALID', message };
  }
  if (error instanceof InsufficientFunds)
    return { kind: 'failed', code: 'EXCHANGE_INSUFFICIENT_BALANCE', message };
  if (error instanceof BadSymbol) return { kind: 'failed', code: 'COIN_NOT_LISTED', message };
  if (error instanceof InvalidOrder) return { kind: 'failed', code: 'ORDER_REJECTED', message };
  if (error instanceof NotSupported) return { kind: 'failed', code: 'EXCHANGE_UNSUPPORTED', message };
  return { kind: 'failed', code: 'EXCHANGE_UNAVAILABLE', message };
};

/** The ExchangeError for a failure (unknown/throttled/clock become a retryable EXCHANGE_UNAVAILABLE). */
export const toExchangeError = (error: unknown): ExchangeError => {
  if (error instanceof ExchangeError) return error;
  const failure = classifyFailure(error);
  if (failure.kind === 'failed') {
    return new ExchangeError(failure.code, failure.message, {
      exchangeCode: failure.exchangeCode,
      exchangeMessage: failure.exchangeMessage,
      retryable: failure.code === 'EXCHANGE_UNAVAILABLE',
      cause: error,
    });
  }
  if (failure.kind === 'not-found') {
    return new ExchangeError('ORDER_REJECTED', failure.message, {
      exchangeCode: failure.exchangeCode,
      exchangeMessage: failure.exchangeMessage,
      cause: error,
    });
  }
  return new ExchangeError('EXCHANGE_UNAVAILABLE', failure.message, {
    exchangeCode: failure.exchangeCode,
    exchangeMessage: failure.exchangeMessage,
    retryable: true,
    cause: error,
  });
};

/** Runs a ccxt call, rethrowing its failure as an ExchangeError. */
export const guarded = async <T>(call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (error) {
    throw toExchangeError(error);
  }
};
