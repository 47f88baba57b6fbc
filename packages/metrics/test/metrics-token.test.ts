import { describe, expect, it } from 'vitest';
import { metricsAllowed } from '../src';

describe('the /metrics bearer check', () => {
  it('lets every scrape in when no METRICS_TOKEN is set', () => {
    expect(metricsAllowed(undefined, undefined)).toBe(true);
    expect(metricsAllowed('Bearer anything', '')).toBe(true);
  });

  it('asks for exactly the token when one is set', () => {
    const token = 'a-long-scrape-token-42';
    expect(metricsAllowed(`Bearer ${token}`, token)).toBe(true);
    expect(metricsAllowed(`bearer ${token}`, token)).toBe(true);
    expect(metricsAllowed(undefined, token)).toBe(false);
    expect(metricsAllowed(`Bearer ${token}x`, token)).toBe(false);
    expect(metricsAllowed(`Basic ${token}`, token)).toBe(false);
    expect(metricsAllowed('Bearer ', token)).toBe(false);
  });
});
