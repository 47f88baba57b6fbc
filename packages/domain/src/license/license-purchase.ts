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
  | 'LICENSE_RENEWAL_EXPIRED'
  | 'LICENSE_UPDATE_FAILED';

type QuoteResult = { ok: true; quote: LicenseQuote } | { ok: false; code: LicenseQuoteRefusal };

/**
 * Buying `target` (docs/licences.md#upgrade): a higher rank, or — once a paid licence has expired —
 * any paid level again. From an unexpired paid licence the price difference, the period unchanged
 * (an `upgrade`); otherwise the full price and a new period of the level's validity from now (a
 * `purchase`). A price that is not positive (an operator's ladder with equal prices) is refused
 * rather than booked as a zero payment.
 */
export const quoteUpgrade = (
  current: { level: LicenseLevelRow; status: LicenseStatus },
  target: LicenseLevelRow,
  now: Date,
): QuoteResult => {
  const { status } = current;
  // An expired paid licence cannot be renewed (quoteRenewal): every paid level is on sale again.
  const buyingAgain = status.paid && status.expired && target.rank > 0;
  if (!buyingAgain && target.rank <= current.level.rank) return { ok: false, code: 'LICENSE_NOT_UPGRADE' };
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
 * Renewing the current paid licence (docs/licences.md#renewal): only inside the window, the 30 days
 * before it ends, at the discounted price; the new end is the old end + validity and the period
 * keeps its start. Before the window: LICENSE_RENEWAL_UNAVAILABLE; after the end:
 * LICENSE_RENEWAL_EXPIRED (the level is bought again at the full price instead).
 */
export const quoteRenewal = (current: { level: LicenseLevelRow; status: LicenseStatus }): QuoteResult => {
  const { status } = current;
  const { renewal } = status;
  if (status.paid && status.expired) return { ok: false, code: 'LICENSE_RENEWAL_EXPIRED' };
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
      activeFrom: status.activeFrom,
      activeUntil: renewal.newActiveUntil,
    },
  };
};
