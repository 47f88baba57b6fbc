import { ACTIVITY_ACTORS, ACTIVITY_KINDS } from '@gridbot/contracts';
import type { Prisma, PrismaClient } from '@gridbot/db';

// One list of kinds and actors for the writer, the contract and the table's CHECK.
export { ACTIVITY_ACTORS, ACTIVITY_KINDS };
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];
export type ActivityActor = (typeof ACTIVITY_ACTORS)[number];

export type ActivityEntry = {
  coinBotId: number;
  userId: number;
  kind: ActivityKind;
  actor: ActivityActor;
  /** Kind-specific facts; decimals as strings. */
  data?: Prisma.InputJsonObject;
  /** Defaults to now (the database clock). */
  at?: Date;
  /** Set where the same event may be seen twice (a fill from the stream and from a sweep). */
  dedupeKey?: string;
};

type Db = Pick<PrismaClient, 'coinActivity'>;

/**
 * Appends entries to coin bots' activity logs. Pass the transaction client of the change being
 * logged, so the entry and the change commit together. Entries with a dedupeKey already logged
 * for their coin bot are skipped (idempotent under retries).
 */
export const recordActivity = async (
  db: Db,
  entries: ActivityEntry | readonly ActivityEntry[],
): Promise<number> => {
  const list = Array.isArray(entries) ? entries : [entries as ActivityEntry];
  if (list.length === 0) return 0;
  const { count } = await db.coinActivity.createMany({
    data: list.map((entry) => ({
      coinBotId: entry.coinBotId,
      userId: entry.userId,
      kind: entry.kind,
      actor: entry.actor,
      ...(entry.data ? { data: entry.data } : {}),
      ...(entry.at ? { at: entry.at } : {}),
      ...(entry.dedupeKey ? { dedupeKey: entry.dedupeKey } : {}),
    })),
    skipDuplicates: true,
  });
  return count;
};
