import type { ErrorCode } from '@gridbot/contracts';
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
} from 'ccxt';

/**
 * Stable codes of adapter failures. Each is also a code of the error catalogue
 * (packages/contracts errors.ts, docs/errors.md), so an adapter failure that reaches a user maps to
 * its status and localized text as it is.
 */
export const EXCHANGE_ERROR_CODES = [
  'API_KEY_INVALID',
  'API_KEY_NO_SPOT',
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
  return match ? { code: match[1]!, msg: match[2]! } : undefined;
};

/**
 * Binance messages ccxt throws without the body they came in (its table of exact messages: `binance
 * Account has insufficient balance for requested action.`), with the code Binance sends them under
 * ([errors.md, -2010 NEW_ORDER_REJECTED](https://github.com/binance/binance-spot-api-docs/blob/master/errors.md#-2010-new_order_rejected)),
 * so the exchange's own code still reaches the screens.
 */
const BINANCE_EXACT_MESSAGES: Readonly<Record<string, string>> = {
  'Account has insufficient balance for requested action.': '-2010',
};

const binanceExactMessage = (message: string): { code: string; msg: string } | undefined => {
  const msg = message.startsWith('binance ') ? message.slice('binance '.length) : undefined;
  const code = msg === undefined ? undefined : BINANCE_EXACT_MESSAGES[msg];
  return code && msg ? { code, msg: JSON.stringify(msg).slice(1, -1) } : undefined;
};

/** `msg` as Binance wrote it, its JSON escapes undone (kept as found when they are malformed). */
const unescapeJson = (msg: string): string => {
  try {
    return JSON.parse(`"${msg}"`) as string;
  } catch {
    return msg;
  }
};

/** Binance codes, read from the body because ccxt maps them differently per URL (live vs. local). */
const fromBinanceCode = (code: string, msg: string, message: string): Failure => {
  const known = { message, exchangeCode: code, exchangeMessage: unescapeJson(msg) };
  switch (code) {
    case '-1000':
    case '-1001':
    case '-1006':
    case '-1007':
      return { kind: 'unknown', ...known };
    case '-1003':
    case '-1008':
    case '-1015':
      return { kind: 'throttled', ...known };
    case '-1021':
      return { kind: 'clock', ...known };
    case '-1002':
    case '-1022':
    case '-2008':
    case '-2014':
    case '-2015':
      return { kind: 'failed', code: 'API_KEY_INVALID', ...known };
    case '-1121':
      return { kind: 'failed', code: 'COIN_NOT_LISTED', ...known };
    case '-2011':
    case '-2013':
      return { kind: 'not-found', ...known };
    case '-1013':
      return /NOTIONAL/.test(msg)
        ? { kind: 'failed', code: 'ORDER_BELOW_EXCHANGE_MIN', ...known }
        : { kind: 'failed', code: 'ORDER_REJECTED', ...known };
    case '-2010':
      if (/Duplicate order/i.test(msg)) return { kind: 'duplicate', ...known };
      if (/insufficient balance/i.test(msg))
        return { kind: 'failed', code: 'EXCHANGE_INSUFFICIENT_BALANCE', ...known };
      return { kind: 'failed', code: 'ORDER_REJECTED', ...known };
    default:
      return {
        kind: 'failed',
        code: code.startsWith('-1') ? 'ORDER_REJECTED' : 'EXCHANGE_UNAVAILABLE',
        ...known,
      };
  }
};

/** Classifies anything a ccxt call threw. Binance codes first, then ccxt's error classes for other exchanges. */
export const classifyFailure = (error: unknown): Failure => {
  if (error instanceof ExchangeError) {
    // Not sent, or refused before execution: the caller must wait, not resend.
    if (error.options.wait) return { kind: 'throttled', message: error.message };
    return { kind: 'failed', code: error.code, message: error.message };
  }
  const message = error instanceof Error ? error.message : String(error);
  const binance = binanceCode(message) ?? binanceExactMessage(message);
  if (binance) return fromBinanceCode(binance.code, binance.msg, message);
  if (error instanceof InvalidNonce) return { kind: 'clock', message };
  // ccxt answers Binance's "Market is closed." (a symbol outside TRADING) with its own class and
  // message, without the body: keep the exchange's words for the activity log.
  if (error instanceof MarketClosed) {
    return { kind: 'failed', code: 'ORDER_REJECTED', message, exchangeMessage: 'Market is closed.' };
  }
  if (error instanceof DDoSProtection) return { kind: 'throttled', message };
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
