import { describe, expect, it } from 'vitest';
import { bybitSignature, withinClock } from '../src/exchange/bybit/bybit-request';

describe('Bybit clock rule (docs/venues/bybit.md#clock)', () => {
  const now = 1_700_000_000_000;
  it('takes server_time − recv_window <= timestamp < server_time + 1000', () => {
    expect(withinClock(now - 5000, 5000, now)).toBe(true);
    expect(withinClock(now - 5001, 5000, now)).toBe(false);
    expect(withinClock(now + 999, 5000, now)).toBe(true);
    expect(withinClock(now + 1000, 5000, now)).toBe(false);
  });
});

describe('Bybit signature (guide.mdx, authentication)', () => {
  it('is the hex HMAC-SHA256 of timestamp + key + recv window + payload', () => {
    // Values in the shape of Bybit's example; the hex worked out with `openssl dgst -sha256 -hmac secret`.
    const sign = bybitSignature(
      'secret',
      '1658384314791',
      'XXXXXXXXXX',
      '5000',
      'category=option&symbol=BTC-29JUL22-25000-C',
    );
    expect(sign).toBe('02e9182e346177050f199ce1e0703d738589e3763805ed71590ced65539a73a7');
    expect(sign).not.toBe(bybitSignature('secret', '1658384314791', 'XXXXXXXXXX', '5000', 'category=spot'));
  });
});
