import { describe, expect, it } from 'vitest';
import { okxSignature, parseOkxTimestamp, withinOkxClock } from '../src/exchange/okx/okx-request';
import { okxLoginSign } from '../src/exchange/okx/okx-socket';

describe('OKX clock rule (docs/venues/okx.md#clock)', () => {
  const now = 1_700_000_000_000;
  it('takes a timestamp up to 30 s from the server clock, either way', () => {
    expect(withinOkxClock(now - 30_000, now)).toBe(true);
    expect(withinOkxClock(now - 30_001, now)).toBe(false);
    expect(withinOkxClock(now + 30_000, now)).toBe(true);
    expect(withinOkxClock(now + 30_001, now)).toBe(false);
  });

  it('reads OK-ACCESS-TIMESTAMP only as ISO 8601 UTC with milliseconds', () => {
    expect(parseOkxTimestamp('2020-12-08T09:08:57.715Z')).toBe(Date.UTC(2020, 11, 8, 9, 8, 57, 715));
    expect(parseOkxTimestamp('2020-12-08T09:08:57Z')).toBeUndefined();
    expect(parseOkxTimestamp('2020-12-08T17:08:57.715+08:00')).toBeUndefined();
    expect(parseOkxTimestamp('1607418537715')).toBeUndefined();
  });
});

describe('OKX signatures (REST authentication, WebSocket login)', () => {
  // OKX's example secret and timestamp; the Base64 worked out with
  // `openssl dgst -sha256 -hmac <secret> -binary | base64`.
  const secret = '22582BD0CFF14C41EDBF1AB98506286D';

  it('REST: Base64 HMAC-SHA256 of timestamp + method + path with query + body', () => {
    const sign = okxSignature(
      secret,
      '2020-12-08T09:08:57.715Z',
      'get',
      '/api/v5/account/balance?ccy=BTC',
      '',
    );
    expect(sign).toBe('HiZhvSfMtWJA3uUIVXV3a/bSXNPCWvYFXoGCVS8V4zY=');
  });

  it('WebSocket login: Base64 HMAC-SHA256 of seconds + GET + /users/self/verify', () => {
    expect(okxLoginSign(secret, '1538054050')).toBe('+LdIr8lkkvhr5hoA3g9TMC0+uQJ849ftAcocA/ouu4M=');
  });
});
