import { fromMicro } from '@gridbot/ledger';
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
    text: (d: { address: string; asset: 'USDT' | 'TRX'; balance: string; minimum: string }) =>
      `Hot wallet low on ${d.asset}: ${fromMicro(BigInt(d.balance))} ${d.asset} left ` +
      `(alert below ${fromMicro(BigInt(d.minimum))}). Top up ${d.address}.`,
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
    text: (d: { address: string; reason: string; count: number; amount: string }) =>
      `${d.count} withdrawal(s) (${fromMicro(BigInt(d.amount))} USDT) wait: ${WAITING_TEXT[d.reason] ?? d.reason}. ` +
      `Hot wallet ${d.address}; they go out by themselves once it can pay.`,
  },
} as const satisfies Record<string, { data: z.ZodType; text?: (data: never) => string }>;

const WAITING_TEXT: Record<string, string> = {
  hot_wallet_usdt: 'the hot wallet holds too little USDT',
  hot_wallet_trx: 'the hot wallet holds too little TRX for the network fee',
  fee_above_max: 'the network fee is above TRON_FEE_LIMIT_MAX_TRX',
};

export type OperatorAlertKind = keyof typeof operatorAlertKinds;
export type OperatorAlertData<K extends OperatorAlertKind> = z.input<(typeof operatorAlertKinds)[K]['data']>;

export const isOperatorAlertKind = (kind: string): kind is OperatorAlertKind =>
  Object.hasOwn(operatorAlertKinds, kind);
