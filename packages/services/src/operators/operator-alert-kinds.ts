import { z } from 'zod';

/** Micro-USDT as the producers write it (a bigint's decimal string). */
const ZMicro = z.string().regex(/^-?\d+$/);

/**
 * Every kind of row in the `operator_alerts` outbox and the shape of its `data` as its producer
 * writes it (docs/operations.md#operators-chat). The operators' chat is English only. A row whose
 * data does not parse is not sent (status failed, the reason kept).
 */
export const operatorAlertKinds = {
  /** A withdrawal waits for an operator's decision (Approve / Reject buttons). */
  withdrawal_pending: {
    data: z.object({
      withdrawalId: z.number().int().positive(),
      uid: z.number().int().positive(),
      username: z.string(),
      amount: ZMicro,
      toAddress: z.string(),
      /** Why no automatic approval: over the allowance, a frozen account, … */
      reason: z.string(),
    }),
  },
  /**
   * The hot wallet's USDT or TRX fell below HOT_WALLET_MIN_USDT / HOT_WALLET_MIN_TRX: once per
   * episode (a new alert only after it was above the line again). Amounts in micro-units (sun).
   */
  hot_wallet_low: {
    data: z.object({
      address: z.string(),
      asset: z.enum(['USDT', 'TRX']),
      balance: ZMicro,
      minimum: ZMicro,
    }),
  },
  /**
   * Approved withdrawals wait because the hot wallet cannot pay them (docs/wallet.md#network-fees):
   * once per episode, from the first waiting withdrawal until none waits.
   */
  withdrawals_waiting: {
    data: z.object({
      address: z.string(),
      reason: z.enum(['hot_wallet_usdt', 'hot_wallet_trx', 'fee_above_max']),
      count: z.number().int().positive(),
      amount: ZMicro,
    }),
  },
  /**
   * An egress IP's request budget at a venue passed ALERT_SHARE (80 %) of its window
   * (docs/grid.md#request-budget): once per venue, IP and hour.
   */
  venue_budget_high: {
    data: z.object({
      venue: z.string(),
      ip: z.string(),
      pool: z.string(),
      used: z.number().int().nonnegative(),
      limit: z.number().int().positive(),
    }),
  },
  /**
   * The venue closed an egress IP (429 over the limit, 418 a ban): nothing is sent from it until
   * `until` (epoch ms, from Retry-After). Once per closure, whichever process saw it first.
   */
  venue_blocked: {
    data: z.object({
      venue: z.string(),
      ip: z.string(),
      status: z.number().int(),
      until: z.number().int(),
    }),
  },
} as const satisfies Record<string, { data: z.ZodType }>;

export type OperatorAlertKind = keyof typeof operatorAlertKinds;
export type OperatorAlertData<K extends OperatorAlertKind> = z.input<(typeof operatorAlertKinds)[K]['data']>;

export const isOperatorAlertKind = (kind: string): kind is OperatorAlertKind =>
  Object.hasOwn(operatorAlertKinds, kind);
