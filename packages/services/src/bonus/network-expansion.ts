import type { Prisma } from '@gridbot/db';
import { NETWORK_EXPANSION_REQUIRED_PARTNERS, networkExpansionBonus } from '@gridbot/domain';
import { ensureAccount, openAccounts, SYSTEM_ACCOUNTS, transfer, userAccountCode } from '@gridbot/ledger';
import type { ServiceContext } from '../context/service-context';

type Db = Pick<Prisma.TransactionClient, '$queryRawUnsafe'>;

/** A calendar month (UTC) as `YYYY-MM` and its half-open instant range. */
export const monthRange = (month: string): { from: Date; to: Date } => {
  const from = new Date(`${month}-01T00:00:00.000Z`);
  const to = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + 1, 1));
  return { from, to };
};

export const monthOf = (at: Date): string => at.toISOString().slice(0, 7);

export const previousMonth = (month: string): string => {
  const { from } = monthRange(month);
  return monthOf(new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() - 1, 1)));
};

/** The partners of generations 1–3 of a user registered in the month, with their purchases then. */
export type ExpansionPartner = {
  userId: number;
  uid: number;
  username: string;
  firstName: string;
  line: number;
  registeredAt: Date;
  licenseLevel: string;
  purchased: bigint;
};

const REGISTRATIONS_SQL = `
WITH RECURSIVE down(id, line) AS (
  SELECT id, 1 FROM users WHERE sponsor_id = $1
  UNION ALL
  SELECT u.id, d.line + 1 FROM users u JOIN down d ON u.sponsor_id = d.id WHERE d.line < 3
)
SELECT u.id AS user_id, u.uid, u.username, u.first_name, d.line, u.created_at, u.license_level,
       coalesce((SELECT sum(p.amount) FROM license_purchases p
                  WHERE p.user_id = u.id AND p.created_at >= $2 AND p.created_at < $3), 0)::bigint AS purchased
  FROM down d JOIN users u ON u.id = d.id
 WHERE u.created_at >= $2 AND u.created_at < $3
 ORDER BY u.created_at, u.id`;

type Row = {
  user_id: number;
  uid: number;
  username: string;
  first_name: string;
  line: number;
  created_at: Date;
  license_level: string;
  purchased: bigint;
};

export const expansionPartners = async (
  db: Db,
  userId: number,
  month: string,
): Promise<ExpansionPartner[]> => {
  const { from, to } = monthRange(month);
  const rows = await db.$queryRawUnsafe<Row[]>(REGISTRATIONS_SQL, userId, from, to);
  return rows.map((row) => ({
    userId: row.user_id,
    uid: row.uid,
    username: row.username,
    firstName: row.first_name,
    line: Number(row.line),
    registeredAt: row.created_at,
    licenseLevel: row.license_level,
    purchased: BigInt(row.purchased),
  }));
};

/**
 * A user's network expansion month (docs/bonuses.md#network-expansion-bonus): qualifying partners
 * are line-1 partners registered in the month who paid for a licence (PRO1 or higher: every paid
 * level) that month; the pool is what generations 1–3 registered in the month paid for licences
 * in it.
 */
export const expansionMonth = (partners: readonly ExpansionPartner[]) => {
  const qualifyingPartners = partners.filter((p) => p.line === 1 && p.purchased > 0n).length;
  const pool = partners.reduce((sum, p) => sum + p.purchased, 0n);
  return { qualifyingPartners, pool, ...networkExpansionBonus(qualifyingPartners, pool) };
};

/** The last instant of a month: where the earner's own licence is judged. */
export const monthEnd = (month: string): Date => new Date(monthRange(month).to.getTime() - 1);

/**
 * Whether a user's own licence qualifies them for a month's network expansion bonus
 * (docs/bonuses.md#who-earns): a paid level whose period on the account covers the month's last
 * instant. A FREE account earns nothing, however many buyers it invited.
 */
export const expansionLicenseQualifies = async (db: Db, userId: number, month: string): Promise<boolean> => {
  const [row] = await db.$queryRawUnsafe<{ ok: boolean }[]>(
    `SELECT (l.rank > 0 AND u.license_active_from <= $2 AND u.license_active_until > $2) AS ok
       FROM users u JOIN license_levels l ON l.code = u.license_level
      WHERE u.id = $1`,
    userId,
    monthEnd(month),
  );
  return row?.ok === true;
};

/** The key of a user's network expansion payout of a month. */
export const networkExpansionKey = (userId: number, month: string) => `network_expansion:${userId}:${month}`;

/**
 * Pays the network expansion bonus of every month that has ended and is not paid yet — normally
 * last month, on the 1st — (docs/bonuses.md#network-expansion-bonus): 5 % of the pool to each
 * qualified user, from system:house (where licence payments land), as a `referral_bonus` transfer
 * with memo kind `network_expansion`, keyed by user and month, with its payout row in the same
 * transaction. Running it twice or concurrently pays once.
 */
export const payNetworkExpansionBonuses = async (
  ctx: ServiceContext,
  input: { month?: string } = {},
): Promise<{ paid: number; amount: bigint }> => {
  const month = input.month ?? previousMonth(monthOf(ctx.clock.now()));
  const { from, to } = monthRange(month);
  if (to.getTime() > ctx.clock.now().getTime()) return { paid: 0, amount: 0n };
  // Users with at least the required number of line-1 partners who registered and paid that month,
  // themselves holding a paid licence active at the month's end (expansionLicenseQualifies).
  const candidates = await ctx.prisma.$queryRawUnsafe<{ sponsor_id: number }[]>(
    `SELECT u.sponsor_id FROM users u
       JOIN users s ON s.id = u.sponsor_id
       JOIN license_levels l ON l.code = s.license_level
      WHERE u.created_at >= $1 AND u.created_at < $2
        AND l.rank > 0 AND s.license_active_from <= $4 AND s.license_active_until > $4
        AND EXISTS (SELECT 1 FROM license_purchases p
                     WHERE p.user_id = u.id AND p.created_at >= $1 AND p.created_at < $2)
      GROUP BY u.sponsor_id HAVING count(*) >= $3
      ORDER BY u.sponsor_id`,
    from,
    to,
    NETWORK_EXPANSION_REQUIRED_PARTNERS,
    monthEnd(month),
  );
  await ensureAccount(ctx.prisma, SYSTEM_ACCOUNTS.house);
  let paid = 0;
  let amount = 0n;
  for (const { sponsor_id: userId } of candidates) {
    const result = expansionMonth(await expansionPartners(ctx.prisma, userId, month));
    if (!result.qualified || result.bonus <= 0n) continue;
    try {
      const fresh = await ctx.prisma.$transaction(async (tx) => {
        const account = userAccountCode(userId, 'main');
        await openAccounts(tx, [account]);
        const booked = await transfer(tx, {
          idempotencyKey: networkExpansionKey(userId, month),
          type: 'referral_bonus',
          memo: { kind: 'network_expansion', month, note: `network expansion ${month}` },
          legs: [
            { account: SYSTEM_ACCOUNTS.house, amount: -result.bonus },
            { account, amount: result.bonus },
          ],
        });
        if (booked.replayed) return false;
        await tx.networkExpansionPayout.create({
          data: {
            userId,
            month: from,
            qualifyingPartners: result.qualifyingPartners,
            pool: result.pool,
            amount: result.bonus,
            transferId: booked.id,
          },
        });
        await tx.notification.createMany({
          data: [
            {
              userId,
              kind: 'bonus_credited',
              data: { bonus: 'network_expansion_bonus', amount: result.bonus.toString() },
              dedupeKey: `bonus_credited:${booked.id}:${userId}`,
            },
          ],
          skipDuplicates: true,
        });
        return true;
      });
      if (fresh) {
        paid += 1;
        amount += result.bonus;
      }
    } catch (error) {
      ctx.log.error({ userId, month, err: error }, 'network expansion payout failed');
    }
  }
  if (paid > 0) ctx.log.info({ month, paid, amount: amount.toString() }, 'network expansion bonuses paid');
  return { paid, amount };
};
