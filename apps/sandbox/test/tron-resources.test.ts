import { describe, expect, it } from 'vitest';
import {
  bandwidthBill,
  energyLimitOf,
  newAccount,
  RESOURCE_WINDOW_MS,
  usedNow,
} from '../src/tron/tron-resources';

describe('the sandbox resource model', () => {
  it('recovers used bandwidth and energy linearly over 24 hours of chain time', () => {
    expect(usedNow(1000, 0, 0)).toBe(1000);
    expect(usedNow(1000, 0, RESOURCE_WINDOW_MS / 2)).toBe(500);
    expect(usedNow(1000, 0, RESOURCE_WINDOW_MS)).toBe(0);
    expect(usedNow(1000, 0, RESOURCE_WINDOW_MS * 2)).toBe(0);
  });

  it('caps a call by its fee limit, staked energy included', () => {
    const account = { ...newAccount(1_000_000_000n, 0), energyLimit: 100_000 };
    // 1,000 TRX and 100,000 staked energy, but a fee limit of 21 TRX: 100,000 energy in all.
    expect(energyLimitOf(account, 21_000_000n, 0)).toBe(100_000);
    // A poor account: its TRX limits it, whatever the fee limit.
    expect(energyLimitOf(newAccount(2_100_000n, 0), 100_000_000n, 0)).toBe(10_000);
  });

  it('pays bandwidth from stake, then the free allowance, then burns it; account creation never free', () => {
    const staked = { ...newAccount(10_000_000n, 0), netLimit: 1000 };
    expect(bandwidthBill(staked, 345, 0)).toMatchObject({ from: 'staked' });
    expect(bandwidthBill(newAccount(0n, 0), 345, 0)).toMatchObject({ from: 'free' });
    expect(bandwidthBill({ ...newAccount(0n, 0), freeNetUsage: 400 }, 345, 0)).toEqual({
      from: 'burn',
      bytes: 345,
      burnSun: 345_000n,
    });
    expect(bandwidthBill(newAccount(0n, 0), 268, 0, true)).toEqual({
      from: 'burn',
      bytes: 268,
      burnSun: 100_000n,
    });
  });
});
