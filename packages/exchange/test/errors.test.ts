import {
  AuthenticationError,
  ExchangeNotAvailable,
  InsufficientFunds,
  InvalidNonce,
  InvalidOrder,
  RateLimitExceeded,
  RequestTimeout,
} from 'ccxt';
import { describe, expect, it } from 'vitest';
import { classifyFailure, toExchangeError } from '../src/errors';

const binance = (code: number, msg: string) => new InvalidOrder(`binance ${JSON.stringify({ code, msg })}`);

describe('classifyFailure', () => {
  it.each([
    [binance(-2010, 'Duplicate order sent.'), { kind: 'duplicate' }],
    [
      binance(-2010, 'Account has insufficient balance for requested action.'),
      { kind: 'failed', code: 'EXCHANGE_INSUFFICIENT_BALANCE' },
    ],
    [binance(-1013, 'Filter failure: NOTIONAL'), { kind: 'failed', code: 'ORDER_BELOW_EXCHANGE_MIN' }],
    [binance(-1013, 'Filter failure: MIN_NOTIONAL'), { kind: 'failed', code: 'ORDER_BELOW_EXCHANGE_MIN' }],
    [binance(-1013, 'Filter failure: LOT_SIZE'), { kind: 'failed', code: 'ORDER_REJECTED' }],
    [binance(-2011, 'Unknown order sent.'), { kind: 'not-found' }],
    [binance(-2013, 'Order does not exist.'), { kind: 'not-found' }],
    [
      binance(-2015, 'Invalid API-key, IP, or permissions for action.'),
      { kind: 'failed', code: 'API_KEY_INVALID' },
    ],
    [binance(-1022, 'Signature for this request is not valid.'), { kind: 'failed', code: 'API_KEY_INVALID' }],
    [binance(-1021, 'Timestamp for this request is outside of the recvWindow.'), { kind: 'clock' }],
    [binance(-1007, 'Timeout waiting for response from backend server.'), { kind: 'unknown' }],
    [binance(-1121, 'Invalid symbol.'), { kind: 'failed', code: 'COIN_NOT_LISTED' }],
    [
      new RequestTimeout('binance GET https://api.binance.com/api/v3/order request timed out (10000 ms)'),
      { kind: 'unknown' },
    ],
    [new ExchangeNotAvailable('binance fetch failed'), { kind: 'unknown' }],
    // ccxt's class for Bybit 10006 and OKX 50011: a sibling of DDoSProtection, not a NetworkError outcome.
    [new RateLimitExceeded('bybit {"retCode":10006,"retMsg":"Too many visits!"}'), { kind: 'throttled' }],
    [
      new RateLimitExceeded('okx {"code":"50011","msg":"Too Many Requests","data":[]}'),
      { kind: 'throttled' },
    ],
    [binance(-1999, 'An unlisted request error.'), { kind: 'failed', code: 'ORDER_REJECTED' }],
    // Bybit and OKX answers as ccxt throws them (their bodies, by the venue tables).
    [
      new InvalidOrder(
        'bybit {"retCode":170131,"retMsg":"Insufficient balance.","result":{},"retExtInfo":{},"time":1700000000000}',
      ),
      { kind: 'failed', code: 'EXCHANGE_INSUFFICIENT_BALANCE', exchangeCode: '170131' },
    ],
    [
      new InvalidNonce(
        'bybit {"retCode":10002,"retMsg":"invalid request, please check your server timestamp or recv_window param","result":{}}',
      ),
      { kind: 'clock', exchangeCode: '10002' },
    ],
    [
      new InsufficientFunds(
        'okx {"code":"1","data":[{"clOrdId":"gbX","ordId":"","sCode":"51008","sMsg":"Order failed. Insufficient USDT balance in account.","tag":""}],"msg":"All operations failed"}',
      ),
      {
        kind: 'failed',
        code: 'EXCHANGE_INSUFFICIENT_BALANCE',
        exchangeCode: '51008',
        exchangeMessage: 'Order failed. Insufficient USDT balance in account.',
      },
    ],
    [
      new InvalidOrder(
        'okx {"code":"1","data":[{"clOrdId":"gbX","ordId":"","sCode":"51016","sMsg":"Duplicated clOrdId","tag":""}],"msg":"All operations failed"}',
      ),
      { kind: 'duplicate', exchangeCode: '51016' },
    ],
    [new InvalidOrder('okx {"code":"51603","data":[],"msg":"Order does not exist"}'), { kind: 'not-found' }],
    [binance(-3999, 'An unlisted other error.'), { kind: 'failed', code: 'EXCHANGE_UNAVAILABLE' }],
    [
      new InsufficientFunds('bybit not enough balance'),
      { kind: 'failed', code: 'EXCHANGE_INSUFFICIENT_BALANCE' },
    ],
    [new AuthenticationError('okx invalid key'), { kind: 'failed', code: 'API_KEY_INVALID' }],
  ])('%s', (error, expected) => {
    expect(classifyFailure(error)).toMatchObject(expected);
  });

  it('makes unknown outcomes retryable EXCHANGE_UNAVAILABLE errors', () => {
    const error = toExchangeError(new RequestTimeout('timed out'));
    expect(error).toMatchObject({ code: 'EXCHANGE_UNAVAILABLE', retryable: true });
    expect(toExchangeError(binance(-2015, 'x'))).toMatchObject({ code: 'API_KEY_INVALID', retryable: false });
  });
});

describe("the exchange's own words", () => {
  it('keeps Binance code and message, escapes undone, beside the client library text', () => {
    const error = toExchangeError(binance(-2010, 'Account has "insufficient" balance for requested action.'));
    expect(error.options.exchangeCode).toBe('-2010');
    expect(error.options.exchangeMessage).toBe('Account has "insufficient" balance for requested action.');
    expect(error.message).toContain('binance {');
  });

  it('gives the code of a Binance message ccxt throws without its body (-2010, insufficient balance)', () => {
    // What ccxt's binance class throws for it: the message alone, found in its table of exact messages.
    const error = toExchangeError(
      new InsufficientFunds('binance Account has insufficient balance for requested action.'),
    );
    expect(error).toMatchObject({ code: 'EXCHANGE_INSUFFICIENT_BALANCE' });
    expect(error.options.exchangeCode).toBe('-2010');
    expect(error.options.exchangeMessage).toBe('Account has insufficient balance for requested action.');
  });
});
