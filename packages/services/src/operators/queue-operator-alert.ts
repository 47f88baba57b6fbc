import type { Prisma, PrismaClient } from '@gridbot/db';
import { type OperatorAlertData, type OperatorAlertKind, operatorAlertKinds } from './operator-alert-kinds';

type Db = PrismaClient | Prisma.TransactionClient;

/**
 * Queues one message to the operators' chat (docs/operations.md#operators-chat), in the caller's
 * transaction when it hands one in, so the alert exists exactly when its event does. The same
 * `dedupeKey` again queues nothing (an event seen twice, two processes noticing one low balance).
 * The data is checked against its kind here, so a producer's mistake fails where it is made.
 * Returns whether a row was written.
 */
export const queueOperatorAlert = async <K extends OperatorAlertKind>(
  db: Db,
  alert: { kind: K; data: OperatorAlertData<K>; dedupeKey: string; at?: Date },
): Promise<boolean> => {
  const data = operatorAlertKinds[alert.kind].data.parse(alert.data) as Prisma.InputJsonValue;
  const at = alert.at ?? new Date();
  const { count } = await db.operatorAlert.createMany({
    data: [{ kind: alert.kind, data, dedupeKey: alert.dedupeKey, createdAt: at, nextAttemptAt: at }],
    skipDuplicates: true,
  });
  return count > 0;
};
