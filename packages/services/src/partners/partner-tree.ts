import type { PartnerMeasures } from '@gridbot/contracts';
import type { PrismaClient } from '@gridbot/db';
import { fromMicro } from '@gridbot/ledger';
import { z } from 'zod';
import { ZCursorInstant } from '../paging/keyset-cursor';

/**
 * The partner tree in SQL: recursive CTEs over `users.sponsor_id` (indexed) and licence purchases
 * read from the ledger (docs/bonuses.md#measures). A purchase is a `license_purchase` transfer; its
 * buyer is the user whose main balance it debits, and the amount is what left that balance.
 */

/** Licence purchases of [$from, $until): buyer and amount (micro-USDT). */
const PURCHASES_SQL = `
  SELECT a.user_id, -e.amount AS amount
    FROM ledger_transfers t
    JOIN ledger_entries e ON e.transfer_id = t.id AND e.amount < 0
    JOIN ledger_accounts a ON a.id = e.account_id AND a.sub_balance = 'main'
   WHERE t.type = 'license_purchase' AND t.created_at >= $2 AND t.created_at < $3`;

/** $1 = viewer id; every partner below, with its line (1 = personally invited). */
const DOWNLINE_SQL = `
  downline AS (
    SELECT u.id, 1 AS line, u.created_at, u.license_level FROM users u WHERE u.sponsor_id = $1
    UNION ALL
    SELECT u.id, d.line + 1, u.created_at, u.license_level FROM users u JOIN downline d ON u.sponsor_id = d.id
  )`;

const MEASURES_SQL = `
  WITH RECURSIVE ${DOWNLINE_SQL},
  bought AS (SELECT d.line, p.user_id, p.amount FROM (${PURCHASES_SQL}) p JOIN downline d ON d.id = p.user_id)
  SELECT
    (SELECT coalesce(sum(amount), 0) FROM bought WHERE line = 1)::text AS gen1,
    (SELECT coalesce(sum(amount), 0) FROM bought WHERE line = 2)::text AS gen2,
    (SELECT coalesce(sum(amount), 0) FROM bought WHERE line = 3)::text AS gen3,
    (SELECT coalesce(sum(amount), 0) FROM bought)::text AS team,
    (SELECT count(DISTINCT user_id) FROM bought)::int AS activated,
    (SELECT count(*) FROM downline WHERE line = 1 AND created_at >= $2 AND created_at < $3)::int AS new_personal,
    (SELECT count(*) FROM downline WHERE created_at >= $2 AND created_at < $3)::int AS new_team,
    (SELECT count(*) FROM downline d JOIN license_levels l ON l.code = d.license_level
      WHERE l.rank = 0
        AND NOT EXISTS (SELECT 1 FROM coin_bots c WHERE c.user_id = d.id AND c.running AND c.deleted_at IS NULL)
    )::int AS free_non_trading,
    (SELECT count(*) FROM downline WHERE line = 1)::int AS line1,
    (SELECT count(*) FROM downline WHERE line = 2)::int AS line2,
    (SELECT count(*) FROM downline WHERE line = 3)::int AS line3,
    (SELECT count(*) FROM downline)::int AS total,
    (SELECT count(DISTINCT b.user_id) FROM bought b JOIN downline d ON d.id = b.user_id
      WHERE b.line = 1 AND d.created_at >= $2 AND d.created_at < $3)::int AS new_paying_personal`;

type MeasuresRow = {
  gen1: string;
  gen2: string;
  gen3: string;
  team: string;
  activated: number;
  new_personal: number;
  new_team: number;
  free_non_trading: number;
  line1: number;
  line2: number;
  line3: number;
  total: number;
  new_paying_personal: number;
};

export type TeamFigures = {
  measures: PartnerMeasures;
  team: { line1: number; line2: number; line3: number; total: number };
  /** Line-1 partners registered in the period who bought a (paid, so PRO1 or higher) licence in it. */
  newPayingPersonal: number;
};

const usdt = (micro: string) => fromMicro(BigInt(micro));

/** Every measure of `userId`'s downline for [from, until), in one statement. */
export const teamFigures = async (
  prisma: PrismaClient,
  input: { userId: number; from: Date; until: Date },
): Promise<TeamFigures> => {
  const [row] = await prisma.$queryRawUnsafe<MeasuresRow[]>(
    MEASURES_SQL,
    input.userId,
    input.from,
    input.until,
  );
  if (!row) throw new Error('measures query returned no row');
  return {
    measures: {
      personalVolume: usdt(row.gen1),
      teamVolume: usdt(row.team),
      generation1Volume: usdt(row.gen1),
      generation2Volume: usdt(row.gen2),
      generation3Volume: usdt(row.gen3),
      newPersonalRegistrations: row.new_personal,
      newTeamRegistrations: row.new_team,
      freeLicenseNonTrading: row.free_non_trading,
      activatedLicenses: row.activated,
    },
    team: { line1: row.line1, line2: row.line2, line3: row.line3, total: row.total },
    newPayingPersonal: row.new_paying_personal,
  };
};

/**
 * The line of `targetUid` below `viewerId` (walking up from the target, one row per level), or
 * null when the target is not in the viewer's downline (the viewer themself included).
 */
export const lineBelow = async (
  prisma: PrismaClient,
  input: { viewerId: number; targetUid: number },
): Promise<{ id: number; line: number } | null> => {
  const [row] = await prisma.$queryRawUnsafe<{ id: number; line: number }[]>(
    `WITH RECURSIVE up AS (
       SELECT id AS target, id, sponsor_id, 0 AS depth FROM users WHERE uid = $2
       UNION ALL
       SELECT up.target, u.id, u.sponsor_id, up.depth + 1 FROM users u JOIN up ON u.id = up.sponsor_id
        WHERE up.id <> $1
     )
     SELECT target AS id, depth AS line FROM up WHERE id = $1 AND depth > 0`,
    input.viewerId,
    input.targetUid,
  );
  return row ?? null;
};

export type TeamSize = { directPartners: number; teamSize: number };

/** Direct partners and whole-downline size of each of `ids` (one walk below them all). */
export const teamSizes = async (prisma: PrismaClient, ids: number[]): Promise<Map<number, TeamSize>> => {
  const sizes = new Map<number, TeamSize>(ids.map((id) => [id, { directPartners: 0, teamSize: 0 }]));
  if (ids.length === 0) return sizes;
  const rows = await prisma.$queryRawUnsafe<{ root: number; direct: number; team: number }[]>(
    `WITH RECURSIVE below AS (
       SELECT u.sponsor_id AS root, u.id, 1 AS depth FROM users u WHERE u.sponsor_id = ANY($1::int[])
       UNION ALL
       SELECT b.root, u.id, b.depth + 1 FROM users u JOIN below b ON u.sponsor_id = b.id
     )
     SELECT root, count(*) FILTER (WHERE depth = 1)::int AS direct, count(*)::int AS team
       FROM below GROUP BY root`,
    ids,
  );
  for (const row of rows) sizes.set(row.root, { directPartners: row.direct, teamSize: row.team });
  return sizes;
};

/** Each user's own licence purchases in [from, until), micro-USDT. */
export const ownPurchases = async (
  prisma: PrismaClient,
  input: { ids: number[]; from: Date; until: Date },
): Promise<Map<number, bigint>> => {
  if (input.ids.length === 0) return new Map();
  const rows = await prisma.$queryRawUnsafe<{ user_id: number; amount: string }[]>(
    `SELECT p.user_id, sum(p.amount)::text AS amount FROM (${PURCHASES_SQL}) p
      WHERE p.user_id = ANY($1::int[]) GROUP BY p.user_id`,
    input.ids,
    input.from,
    input.until,
  );
  return new Map(rows.map((row) => [row.user_id, BigInt(row.amount)]));
};

/** The users of `ids` with at least one coin running. */
export const tradingUsers = async (prisma: PrismaClient, ids: number[]): Promise<Set<number>> => {
  if (ids.length === 0) return new Set();
  const rows = await prisma.coinBot.findMany({
    where: { userId: { in: ids }, running: true, deletedAt: null },
    select: { userId: true },
    distinct: ['userId'],
  });
  return new Set(rows.map((row) => row.userId));
};

/** A partner's place in the list: registration instant and user id, newest first. */
export const ZPartnerKey = z.tuple([ZCursorInstant, z.number().int()]);

/**
 * One page of `viewerId`'s partners of lines 1–`maxLine` (or exactly `line`) registered before
 * `until`, newest first by (created_at, id): after a partner's key (keyset) or from an offset,
 * with the number of all such partners.
 */
export const partnerPage = async (
  prisma: PrismaClient,
  input: {
    viewerId: number;
    line?: number | undefined;
    until: Date;
    limit: number;
    after: z.output<typeof ZPartnerKey> | null;
    offset: number;
  },
): Promise<{ rows: { id: number; line: number; createdAt: Date }[]; total: number }> => {
  const maxLine = input.line ?? 3;
  const [afterAt, afterId] = input.after ?? [null, null];
  const rows = await prisma.$queryRawUnsafe<
    { id: number | null; line: number | null; created_at: Date | null; total: number }[]
  >(
    `WITH RECURSIVE downline AS (
       SELECT u.id, 1 AS line, u.created_at FROM users u WHERE u.sponsor_id = $1
       UNION ALL
       SELECT u.id, d.line + 1, u.created_at FROM users u JOIN downline d ON u.sponsor_id = d.id
        WHERE d.line < $2
     ),
     listed AS (SELECT * FROM downline WHERE created_at < $3 AND ($4::int IS NULL OR line = $4::int))
     SELECT p.id, p.line, p.created_at, (SELECT count(*) FROM listed)::int AS total
       FROM (SELECT 1) one
       LEFT JOIN (SELECT * FROM listed
                   WHERE $7::timestamptz IS NULL OR (created_at, id) < ($7::timestamptz, $8::int)
                   ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6) p ON true`,
    input.viewerId,
    maxLine,
    input.until,
    input.line ?? null,
    input.limit,
    input.offset,
    afterAt,
    afterId,
  );
  return {
    rows: rows.flatMap((row) =>
      row.id !== null && row.line !== null && row.created_at !== null
        ? [{ id: row.id, line: row.line, createdAt: row.created_at }]
        : [],
    ),
    total: rows[0]?.total ?? 0,
  };
};
