import { describe, expect, it } from 'vitest';
import { createCcxtExchange } from '../src/ccxt-instance';

const options = { exchange: 'binance', apiKey: 'k', secret: 's' } as const;

describe('the request limiter', () => {
  // ccxt builds its token bucket in the constructor: a rateLimit set afterwards would leave the
  // sandbox paced at Binance's 50 ms per weight unit (a 24 h tickers call waited 0.6 s).
  it('paces the sandbox at 5 ms per weight unit, Binance itself at its own 50 ms', () => {
    const sandbox = createCcxtExchange({ ...options, mode: 'sandbox', sandboxUrl: 'http://127.0.0.1:9' });
    expect(sandbox.tokenBucket).toMatchObject({ refillRate: 1 / 5 });
    const live = createCcxtExchange({ ...options, mode: 'live' });
    expect(live.tokenBucket).toMatchObject({ refillRate: 1 / 50 });
  });
});
