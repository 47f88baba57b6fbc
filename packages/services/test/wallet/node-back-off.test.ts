import { describe, expect, it } from 'vitest';
import {
  createNodeBackOff,
  retryAfterMs,
  suspensionMs,
  TronNodeBusyError,
} from '../../src/wallet/chain/node-back-off';

describe('the TRON node back-off (docs/wallet.md#within-trongrids-budget)', () => {
  it.each([
    ['7', 7_000],
    [' 0 ', 0],
    ['Wed, 21 Oct 2015 07:28:10 GMT', 10_000],
    ['Wed, 21 Oct 2015 07:27:00 GMT', 0],
    ['soon', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('reads Retry-After %j as %j ms', (header, ms) => {
    expect(retryAfterMs(header, Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(ms);
  });

  it("reads the penalty TronGrid's refusal names in its text", () => {
    const body = {
      Error: 'The key exceeds the frequency limit(15), and the query server is suspended for 30s',
    };
    expect(suspensionMs(body)).toBe(30_000);
    expect(suspensionMs(JSON.stringify(body))).toBe(30_000);
    expect(suspensionMs({ Error: 'Too Many Requests' })).toBeUndefined();
  });

  it('sends nothing until the wait passes, honouring Retry-After, then the text, then doubling', () => {
    let now = 1_000_000;
    const backOff = createNodeBackOff(() => now);
    backOff.beforeRequest();
    const first = backOff.refused(429, '3', undefined);
    expect(first).toBeInstanceOf(TronNodeBusyError);
    expect(first).toMatchObject({ status: 429, resumeAt: now + 3_000, sent: true });
    now += 2_999;
    expect(() => backOff.beforeRequest()).toThrow(TronNodeBusyError);
    now += 1;
    expect(() => backOff.beforeRequest()).not.toThrow();

    expect(backOff.refused(403, undefined, { Error: '… suspended for 30s' }).resumeAt).toBe(now + 30_000);
    now += 30_000;
    // No wait named: 5 s, doubling with each refusal in a row (the third here), at most 5 min.
    expect(backOff.refused(503, undefined, 'Service Unavailable').resumeAt).toBe(now + 20_000);
    for (let i = 0; i < 10; i += 1) backOff.refused(503, undefined, '');
    expect(backOff.resumeAt()).toBe(now + 5 * 60_000);
    now += 5 * 60_000;
    backOff.answered();
    expect(backOff.refused(503, undefined, '').resumeAt).toBe(now + 5_000);
  });
});
