import { bybit, okx } from '@gridbot/venues';
import { describe, expect, it } from 'vitest';
import { privateStreamConnectionBudget, privateStreamUrl } from '../src/index';

describe('the private order streams of Bybit and OKX, as data', () => {
  it.each([
    ['bybit', 'live', undefined, 'wss://stream.bybit.com/v5/private'],
    ['bybit', 'testnet', undefined, 'wss://stream-testnet.bybit.com/v5/private'],
    ['bybit', 'sandbox', 'http://127.0.0.1:3111/', 'ws://127.0.0.1:3111/v5/private'],
    ['okx', 'live', undefined, 'wss://ws.okx.com:8443/ws/v5/private'],
    ['okx', 'testnet', undefined, 'wss://wspap.okx.com:8443/ws/v5/private'],
    ['okx', 'sandbox', 'http://127.0.0.1:3112', 'ws://127.0.0.1:3112/ws/v5/private'],
  ] as const)('%s in mode %s connects to its own host', (venue, mode, sandboxUrl, url) => {
    expect(privateStreamUrl(venue, mode, sandboxUrl)).toBe(url);
  });

  it('has no per-account stream for Binance (its user data stream is shared: user-data/)', () => {
    expect(() => privateStreamUrl('binance', 'live')).toThrowError(
      expect.objectContaining({ code: 'EXCHANGE_UNSUPPORTED' }),
    );
  });

  it("paces connection attempts at 80 % of the venue's per-IP limit over a window a tenth longer", () => {
    // Bybit: 500 per 5 minutes; OKX: 3 a second.
    expect(privateStreamConnectionBudget(bybit.userStream)).toEqual({ attempts: 400, windowMs: 330_000 });
    expect(privateStreamConnectionBudget(okx.userStream)).toEqual({ attempts: 2, windowMs: 1100 });
  });
});
