/**
 * What a coin bot is doing, as the portfolio, the coin page and the panel show it (docs/grid.md
 * "Coin states"). Pure: the read services pass what they loaded.
 */
export type CoinStateName = 'running' | 'waiting' | 'drying' | 'dried' | 'paused' | 'error';
export type DryReason = 'coin' | 'all' | 'license_expired' | 'fee_balance_empty';

export type CoinStateInput = {
  /** Started by the user (false: paused). */
  running: boolean;
  /** The coin's own drying flag. */
  coinDry: boolean;
  /** The user's global drying mode. */
  dryAll: boolean;
  /** Forced dry by an expired licence (the engine reads it with the coin, docs/licences.md#expiry). */
  licenseExpired?: boolean;
  /** Forced dry by a fee balance ≤ 0 (docs/fees.md#fee-balance). */
  feeBalanceEmpty?: boolean;
  openLots: number;
  maxTrades: number;
  /** The last refusal's catalogue code, null when the last reconcile went through. */
  lastError: string | null;
};

/** Why the coin is effectively dry, the user's own choices first; null when it is not. */
export const dryReasonOf = (input: CoinStateInput): DryReason | null => {
  if (input.coinDry) return 'coin';
  if (input.dryAll) return 'all';
  if (input.licenseExpired) return 'license_expired';
  if (input.feeBalanceEmpty) return 'fee_balance_empty';
  return null;
};

/**
 * paused: not started. error: the last reconcile was refused (lastError). drying: dry with open
 * lots still selling; dried: dry and nothing left. waiting: at the purchase limit (only sells).
 * running: otherwise.
 */
export const coinStateOf = (input: CoinStateInput): { state: CoinStateName; dryReason: DryReason | null } => {
  const dryReason = dryReasonOf(input);
  if (!input.running) return { state: 'paused', dryReason };
  if (input.lastError) return { state: 'error', dryReason };
  if (dryReason) return { state: input.openLots > 0 ? 'drying' : 'dried', dryReason };
  return { state: input.openLots >= input.maxTrades ? 'waiting' : 'running', dryReason };
};
