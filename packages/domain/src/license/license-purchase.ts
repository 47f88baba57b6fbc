import Decimal from 'decimal.js';
import type { LicenseLevelRow, LicenseStatus } from './license-rules';
import { renewalPrice } from './license-rules';

const DAY_MS = 86_400_000;

/** A USDT decimal string (≤ 6 decimals, as the ladder stores prices) in micro-USDT. */
export const usdtToMicro = (usdt: string): bigint => {
  const micro = new Decimal(usdt).times(1_000_000);
  if (!micro.isInteger() || micro.isNegative()) throw new RangeError(`Not a USDT amount: ${usdt}`);
  return BigInt(micro.toFixed(0));
};

export type LicensePurchaseKind = 'purchase' | 'upgrade' | 'renewal';

/** What a licence payment buys: the level, its period afterwards and the price in micro-USDT. */
export type LicenseQuote = {
  kind: LicensePurchaseKind;
  level: string;
  price: bigint;
  activeFrom: Date;
  activeUntil: Date;
};

export type LicenseQuoteRefusal =
  | 'LICENSE_NOT_UPGRADE'
  | 'LICENSE_RENEWAL_UNAVAILABLE'
  | 'LICENSE_UPDATE_FAILED';

type QuoteResult = { ok: true; quote: LicenseQuote } | { ok: false; code: LicenseQuoteRefusal };

/**
 * Buying `target` (docs/licences.md#upgrade): only a higher rank. From an unexpired paid licence the
 * price difference, the period unchanged (an `upgrade`); otherwise the full price and a new period of
 * the level's validity from now (a `purchase`). A price that is not positive (an operator's ladder
 * with equal prices) is refused rather than booked as a zero payment.
 */
export const quoteUpgrade = (
  current: { level: LicenseLevelRow; status: LicenseStatus },
  target: LicenseLevelRow,
  now: Date,
): QuoteResult => {
  if (target.rank <= current.level.rank) return { ok: false, code: 'LICENSE_NOT_UPGRADE' };
  const { status } = current;
  const upgrade = status.paid && !status.expired;
  const price = upgrade
    ? usdtToMicro(target.yearlyPrice) - usdtToMicro(current.level.yearlyPrice)
    : usdtToMicro(target.yearlyPrice);
  if (price <= 0n) return { ok: false, code: 'LICENSE_UPDATE_FAILED' };
  return {
    ok: true,
    quote: upgrade
      ? {
          kind: 'upgrade',
          level: target.code,
          price,
          activeFrom: status.activeFrom,
          activeUntil: status.activeUntil,
        }
      : {
          kind: 'purchase',
          level: target.code,
          price,
          activeFrom: now,
          activeUntil: new Date(now.getTime() + target.validDays * DAY_MS),
        },
  };
};

/**
 * Renewing the current paid licence (docs/licences.md#renewal): only inside the window (the last 30
 * days, or already expired), at the discounted price; the new end is max(end, now) + validity. An
 * expired licence's new period starts now; a running one keeps its start.
 */
export const quoteRenewal = (
  current: { level: LicenseLevelRow; status: LicenseStatus },
  now: Date,
): QuoteResult => {
  const { status } = current;
  const { renewal } = status;
  if (!renewal.available || renewal.newActiveUntil === null) {
    return { ok: false, code: 'LICENSE_RENEWAL_UNAVAILABLE' };
  }
  const price = usdtToMicro(
    new Decimal(renewalPrice(current.level.yearlyPrice)).toDecimalPlaces(6, Decimal.ROUND_DOWN).toFixed(),
  );
  if (price <= 0n) return { ok: false, code: 'LICENSE_UPDATE_FAILED' };
  return {
    ok: true,
    quote: {
      kind: 'renewal',
      level: current.level.code,
      price,
      activeFrom: status.expired ? now : status.activeFrom,
      activeUntil: renewal.newActiveUntil,
    },
  };
};
