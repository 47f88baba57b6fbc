/**
 * The partner programme's money maths (docs/bonuses.md), pure and in micro-USDT (bigint): every
 * share is rounded down to the micro-USDT, and whatever is not paid out (no upline, an inactive
 * licence, a generation beyond the upline's licence, rounding dust) stays with the platform.
 */

/** Referral bonus rates of lines 1, 2, 3 in percent (of every licence payment). */
export const REFERRAL_RATES_PCT = ['30', '8', '5'] as const;
/** Matching bonus rates of generations 1, 2, 3 in percent (of every trading fee). */
export const MATCHING_RATES_PCT = ['10', '5', '3'] as const;
/** Network expansion: share of the month's pool (percent) and the new line-1 PRO1+ buyers needed. */
export const NETWORK_EXPANSION_RATE_PCT = '5';
export const NETWORK_EXPANSION_REQUIRED_PARTNERS = 2;

/** `amount × pct / 100`, rounded down to the micro-USDT; `pct` a decimal string with ≤ 2 decimals. */
export const shareOf = (amount: bigint, pct: string): bigint => {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(pct);
  if (!match) throw new RangeError(`Not a percentage: ${pct}`);
  const hundredths = BigInt(match[1] ?? '0') * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  if (amount <= 0n) return 0n;
  return (amount * hundredths) / 10_000n;
};

/** One upline of the payer as a bonus sees it; null where the line has nobody. */
export type BonusUpline = {
  userId: number;
  /** Their own licence is paid (not FREE) and active at the moment of the payment / fee. */
  active: boolean;
  /** Generations of matching bonus their licence pays (0 on FREE). */
  matchingGenerations: number;
};

export type ReferralShare = {
  line: 1 | 2 | 3;
  userId: number;
  ratePct: string;
  amount: bigint;
  /** False: the upline's licence was not active, the share went to the house. */
  paid: boolean;
};

export type ReferralSplit = {
  /** One entry per line that has an upline (paid or not). */
  shares: ReferralShare[];
  /** Paid to uplines in total. */
  paidOut: bigint;
  /** To system:house: the payment minus what was paid out (unpaid shares and rounding included). */
  house: bigint;
};

/**
 * Splits one licence payment: line g's upline gets REFERRAL_RATES_PCT[g-1] % of it (rounded down)
 * if their own licence is active; the rest of the payment goes to the house.
 * `uplines[0]` is the payer's sponsor, `[1]` the sponsor's sponsor, `[2]` the next.
 */
export const splitReferralBonus = (
  payment: bigint,
  uplines: ReadonlyArray<BonusUpline | null>,
  rates: readonly string[] = REFERRAL_RATES_PCT,
): ReferralSplit => {
  if (payment < 0n) throw new RangeError('A licence payment cannot be negative');
  const shares: ReferralShare[] = [];
  rates.forEach((ratePct, index) => {
    const upline = uplines[index];
    if (!upline) return;
    shares.push({
      line: (index + 1) as 1 | 2 | 3,
      userId: upline.userId,
      ratePct,
      amount: shareOf(payment, ratePct),
      paid: upline.active,
    });
  });
  const paidOut = shares.reduce((sum, share) => (share.paid ? sum + share.amount : sum), 0n);
  return { shares, paidOut, house: payment - paidOut };
};

export type MatchingShare = { generation: 1 | 2 | 3; userId: number; ratePct: string; amount: bigint };

/**
 * The matching bonus of one trading fee: generation g's upline earns MATCHING_RATES_PCT[g-1] % of
 * it (rounded down) when their licence is active and pays at least g generations. Shares of 0 are
 * left out; the rest of the fee stays in system:fees.
 */
export const matchingShares = (
  fee: bigint,
  uplines: ReadonlyArray<BonusUpline | null>,
  rates: readonly string[] = MATCHING_RATES_PCT,
): MatchingShare[] => {
  const shares: MatchingShare[] = [];
  rates.forEach((ratePct, index) => {
    const upline = uplines[index];
    const generation = index + 1;
    if (!upline?.active || upline.matchingGenerations < generation) return;
    const amount = shareOf(fee, ratePct);
    if (amount > 0n)
      shares.push({ generation: generation as 1 | 2 | 3, userId: upline.userId, ratePct, amount });
  });
  return shares;
};

/** A month's network expansion result for one user. */
export const networkExpansionBonus = (
  qualifyingPartners: number,
  pool: bigint,
  required: number = NETWORK_EXPANSION_REQUIRED_PARTNERS,
  ratePct: string = NETWORK_EXPANSION_RATE_PCT,
): { qualified: boolean; bonus: bigint } => {
  const qualified = qualifyingPartners >= required;
  return { qualified, bonus: qualified ? shareOf(pool, ratePct) : 0n };
};
