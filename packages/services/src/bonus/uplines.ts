import type { Prisma } from '@gridbot/db';
import { type BonusUpline, licenseStatus } from '@gridbot/domain';

type Tx = Pick<Prisma.TransactionClient, '$queryRawUnsafe'>;

type Row = {
  line: number;
  id: number;
  created_at: Date;
  license_active_from: Date | null;
  license_active_until: Date | null;
  code: string;
  rank: number;
  yearly_price: string;
  balance_limit: string;
  coins: number;
  matching_generations: number;
  valid_days: number;
};

// The sponsor chain up to three lines with each upline's licence level, in one statement (it runs
// inside the transaction that closes a lot, for every trading fee).
const UPLINES_SQL = `
WITH RECURSIVE up(id, sponsor_id, line) AS (
  SELECT id, sponsor_id, 0 FROM users WHERE id = $1
  UNION ALL
  SELECT u.id, u.sponsor_id, up.line + 1 FROM users u JOIN up ON u.id = up.sponsor_id WHERE up.line < 3
)
SELECT up.line, u.id, u.created_at, u.license_active_from, u.license_active_until,
       l.code, l.rank, l.yearly_price::text AS yearly_price, l.balance_limit::text AS balance_limit,
       l.coins, l.matching_generations, l.valid_days
  FROM up JOIN users u ON u.id = up.id JOIN license_levels l ON l.code = u.license_level
 WHERE up.line >= 1
 ORDER BY up.line`;

/**
 * The three uplines of a user (sponsor first) with their licence as of `at`: whether it qualifies
 * them for a bonus and how many matching generations it pays. Null where the line has nobody.
 * Only an active **paid** licence qualifies (docs/bonuses.md#who-earns): a FREE account, which
 * costs nothing to open, earns nothing — or three fresh accounts stacked above a buyer would take
 * back 43 % of every purchase.
 */
export const bonusUplines = async (tx: Tx, userId: number, at: Date): Promise<Array<BonusUpline | null>> => {
  const rows = await tx.$queryRawUnsafe<Row[]>(UPLINES_SQL, userId);
  const byLine = new Map(rows.map((row) => [Number(row.line), row]));
  return [1, 2, 3].map((line) => {
    const row = byLine.get(line);
    if (!row) return null;
    const status = licenseStatus(
      {
        code: row.code,
        rank: Number(row.rank),
        yearlyPrice: row.yearly_price,
        balanceLimit: row.balance_limit,
        coins: Number(row.coins),
        matchingGenerations: Number(row.matching_generations),
        validDays: Number(row.valid_days),
      },
      {
        registeredAt: row.created_at,
        activeFrom: row.license_active_from,
        activeUntil: row.license_active_until,
      },
      at,
    );
    return {
      userId: row.id,
      active: status.paid && !status.expired,
      matchingGenerations: status.matchingGenerations,
    };
  });
};
