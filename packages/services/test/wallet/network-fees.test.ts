import { describe, expect, it } from 'vitest';
import {
  energyWithMargin,
  feeLimitOf,
  feeLimitSettingsOf,
  resourcesLeftOf,
  transferCost,
  trxNeededFor,
} from '../../src/wallet/chain/network-fees';

const fees = { energySun: 210n, bandwidthSun: 1000n };
const settings = feeLimitSettingsOf({ TRON_FEE_LIMIT_MARGIN_PCT: 20, TRON_FEE_LIMIT_MAX_TRX: '100' });

describe('network fees of a USDT transfer', () => {
  it('sets the fee limit from the estimate × the energy price with the margin, capped', () => {
    expect(energyWithMargin(64_285, 20)).toBe(77_142n);
    expect(feeLimitOf(64_285, fees, settings)).toEqual({ feeLimitSun: 77_142n * 210n, aboveMax: false });
    expect(feeLimitOf(130_285, fees, settings)).toEqual({ feeLimitSun: 156_342n * 210n, aboveMax: false });
    // The price went up: the margin no longer fits under the cap, the estimate still does.
    expect(feeLimitOf(400_000, fees, settings)).toEqual({ feeLimitSun: 100_000_000n, aboveMax: false });
    // Even the bare estimate costs more than the cap: it must not be sent.
    expect(feeLimitOf(500_000, fees, settings).aboveMax).toBe(true);
  });

  it('burns TRX only for the energy the stake does not cover, and for bandwidth no allowance covers', () => {
    const account = {
      exists: true,
      balanceSun: 0n,
      energyLimit: 100_000,
      energyUsed: 60_000,
      netLimit: 0,
      netUsed: 0,
      freeNetLimit: 600,
      freeNetUsed: 300,
    };
    const left = resourcesLeftOf(account);
    expect(left).toEqual({ energy: 40_000, stakedNet: 0, freeNet: 300 });
    const cost = transferCost(left, { energy: 64_285, bytes: 345 }, fees);
    expect(cost.burnSun).toBe(24_285n * 210n + 345n * 1000n);
    expect(cost.left).toEqual({ energy: 0, stakedNet: 0, freeNet: 300 });
    expect(
      transferCost({ energy: 0, stakedNet: 0, freeNet: 600 }, { energy: 64_285, bytes: 345 }, fees),
    ).toEqual({
      burnSun: 64_285n * 210n,
      left: { energy: 0, stakedNet: 0, freeNet: 255 },
    });
    // An account never activated has no free bandwidth yet.
    expect(resourcesLeftOf({ ...account, exists: false }).freeNet).toBe(0);
  });

  it('asks a deposit address for its fee limit in TRX, and its bandwidth when nothing covers it', () => {
    expect(trxNeededFor({ energy: 0, stakedNet: 0, freeNet: 600 }, 16_000_000n, 345, fees)).toBe(16_000_000n);
    expect(trxNeededFor({ energy: 0, stakedNet: 0, freeNet: 100 }, 16_000_000n, 345, fees)).toBe(16_345_000n);
  });
});
