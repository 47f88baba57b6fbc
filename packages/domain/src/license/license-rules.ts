import Decimal from 'decimal.js';
/**
 * Licence rules (docs/licences.md): one home for the constants and the pure status a
 * user's licence has at a moment. The levels themselves are data (`license_levels`).
 */
import { RENEWAL_DISCOUNT_PCT, RENEWAL_WINDOW_DAYS } from './license-constants';

export * from './license-constants';

const DAY_MS = 86_400_000;

/** One row of the licence ladder, money as decimal strings. */
export type LicenseLevelRow = {
  code: string;
  rank: number;
  yearlyPrice: string;
  balanceLimit: string;
  coins: number;
  matchingGenerations: number;
  validDays: number;
};

export type LicenseHolder = {
  registeredAt: Date;
  /** Both null on the free level: its validity runs from registration. */
  activeFrom: Date | null;
  activeUntil: Date | null;
};

export type LicenseStatus = {
  level: string;
  rank: number;
  paid: boolean;
  activeFrom: Date;
  activeUntil: Date;
  expired: boolean;
  daysLeft: number;
  balanceLimit: string;
  coins: number;
  matchingGenerations: number;
  renewal: {
    available: boolean;
    availableFrom: Date | null;
    price: string | null;
    discountPct: string;
    newActiveUntil: Date | null;
  };
};

const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);

/** The yearly price with the renewal discount, in USDT (exact decimal string). */
export const renewalPrice = (yearlyPrice: string): string =>
  new Decimal(yearlyPrice).times(new Decimal(100).minus(RENEWAL_DISCOUNT_PCT)).div(100).toFixed();

/**
 * The licence as of `now`. A paid licence is renewable in the 30 days before its end, and only
 * then: now ∈ [activeUntil − 30 days, activeUntil) (docs/licences.md#renewal). Renewal extends
 * `activeUntil` by the level's validity. Once expired it is a new purchase at the full price
 * (`quoteUpgrade`). daysLeft counts started days (14 right after a FREE registration), 0 once expired.
 */
export const licenseStatus = (level: LicenseLevelRow, holder: LicenseHolder, now: Date): LicenseStatus => {
  const paid = level.rank > 0 && holder.activeUntil !== null;
  const activeFrom = holder.activeFrom ?? holder.registeredAt;
  const activeUntil = holder.activeUntil ?? addDays(holder.registeredAt, level.validDays);
  const remainingMs = activeUntil.getTime() - now.getTime();
  const expired = remainingMs <= 0;
  const availableFrom = paid ? addDays(activeUntil, -RENEWAL_WINDOW_DAYS) : null;
  const renewable = availableFrom !== null && !expired && now.getTime() >= availableFrom.getTime();
  return {
    level: level.code,
    rank: level.rank,
    paid,
    activeFrom,
    activeUntil,
    expired,
    daysLeft: expired ? 0 : Math.ceil(remainingMs / DAY_MS),
    balanceLimit: level.balanceLimit,
    coins: level.coins,
    matchingGenerations: level.matchingGenerations,
    renewal: {
      available: renewable,
      availableFrom,
      price: paid ? renewalPrice(level.yearlyPrice) : null,
      discountPct: RENEWAL_DISCOUNT_PCT,
      newActiveUntil: paid && !expired ? addDays(activeUntil, level.validDays) : null,
    },
  };
};

/** Committed capital: Σ orderSize × maxTrades over the coins (counted against the balance limit). */
export const committedCapital = (coins: ReadonlyArray<{ orderSize: string; maxTrades: number }>): string =>
  coins
    .reduce((sum, coin) => sum.plus(new Decimal(coin.orderSize).times(coin.maxTrades)), new Decimal(0))
    .toFixed();

/** Why a portfolio would not fit the licence (null when it fits). */
export const licenseLimitBreach = (
  level: Pick<LicenseLevelRow, 'balanceLimit' | 'coins'>,
  coins: ReadonlyArray<{ orderSize: string; maxTrades: number }>,
): 'COIN_LIMIT' | 'LICENSE_BALANCE_LIMIT' | null => {
  if (coins.length > level.coins) return 'COIN_LIMIT';
  if (new Decimal(committedCapital(coins)).gt(level.balanceLimit)) return 'LICENSE_BALANCE_LIMIT';
  return null;
};
