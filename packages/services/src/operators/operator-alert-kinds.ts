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
} as const satisfies Record<string, { data: z.ZodType }>;

export type OperatorAlertKind = keyof typeof operatorAlertKinds;
export type OperatorAlertData<K extends OperatorAlertKind> = z.input<(typeof operatorAlertKinds)[K]['data']>;

export const isOperatorAlertKind = (kind: string): kind is OperatorAlertKind =>
  Object.hasOwn(operatorAlertKinds, kind);
