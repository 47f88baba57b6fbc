import { NETWORK_EXPANSION_RATE_PCT, NETWORK_EXPANSION_REQUIRED_PARTNERS } from '@gridbot/domain';
import { fromMicro } from '@gridbot/ledger';
import { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { getUserLicense } from '../license/user-license';
import { keysetPage, pagePosition, ZCursorDay } from '../paging/keyset-cursor';
import { dayRange, resolveDay, utcDay } from './bonus-days';
import {
  expansionLicenseQualifies,
  expansionMonth,
  expansionPartners,
  monthOf,
  monthRange,
  previousMonth,
} from './network-expansion';

/**
 * The partner pages' bonus figures (docs/bonuses.md): referral and matching bonus by day (detail
 * and paged history) and the network expansion month. Every figure is read from the rows the
 * payments wrote beside their ledger transfers, so each one can be traced to a transfer.
 */

type Ref = { uid: number; username: string | null; firstName: string };
const refOf = (row: { uid: number; username: string; first_name: string }): Ref => ({
  uid: row.uid,
  username: row.username || null,
  firstName: row.first_name,
});

type DayRow = {
  day: Date;
  amount: bigint;
  payments: bigint;
  unpaid: bigint;
  total: bigint;
  all_amount: bigint;
};

/** A day's place in a bonus history: the day itself, newest first. */
const ZDayKey = z.tuple([ZCursorDay]);

type HistoryInput = { userId: number; page: number; limit: number; cursor?: string | undefined };

/** Where a history page starts: `$2` rows (one more than the page) after `$3` days or `$4`'s day. */
const historyPosition = (input: HistoryInput) => {
  const position = pagePosition(input, ZDayKey);
  return [input.limit + 1, position.offset, position.after?.[0] ?? null] as const;
};

const historyPage = (rows: DayRow[], page: number, limit: number) => {
  const first = rows[0];
  const total = Number(first?.total ?? 0);
  const { rows: days, nextCursor } = keysetPage(
    rows.filter((row) => row.day !== null),
    limit,
    (row) => [utcDay(row.day)],
  );
  return {
    items: days.map((row) => ({
      date: utcDay(row.day),
      amount: fromMicro(BigInt(row.amount)),
      payments: Number(row.payments),
      status: BigInt(row.unpaid) > 0n ? ('pending' as const) : ('credited' as const),
    })),
    page,
    limit,
    total,
    hasMore: nextCursor !== null,
    nextCursor,
    totalAmount: fromMicro(BigInt(first?.all_amount ?? 0)),
  };
};

/** Referral bonus of one UTC day, per licence payment of lines 1–3 (paid and forfeited). */
export const getReferralBonusDetail = async (
  ctx: ServiceContext,
  input: { userId: number; date: string },
) => {
  const date = resolveDay(input.date, ctx.clock.now());
  const range = dayRange(date);
  const rows = await ctx.prisma.$queryRawUnsafe<
    Array<{
      uid: number;
      username: string;
      first_name: string;
      line: number;
      level: string;
      purchase: bigint;
      rate_pct: string;
      amount: bigint;
      paid: boolean;
      created_at: Date;
    }>
  >(
    `SELECT u.uid, u.username, u.first_name, b.line, p.level, p.amount AS purchase, b.rate_pct::text AS rate_pct,
            b.amount, b.paid, b.created_at
       FROM referral_bonuses b
       JOIN license_purchases p ON p.id = b.purchase_id
       JOIN users u ON u.id = p.user_id
      WHERE b.upline_id = $1 AND b.created_at >= $2 AND b.created_at < $3
      ORDER BY b.created_at DESC, b.id DESC`,
    input.userId,
    range.gte,
    range.lt,
  );
  const total = rows.reduce((sum, row) => (row.paid ? sum + BigInt(row.amount) : sum), 0n);
  return {
    date,
    total: fromMicro(total),
    items: rows.map((row) => ({
      from: refOf(row),
      line: Number(row.line),
      licenseLevel: row.level,
      purchaseAmount: fromMicro(BigInt(row.purchase)),
      ratePct: String(Number(row.rate_pct)),
      amount: fromMicro(BigInt(row.amount)),
      paid: row.paid,
      at: row.created_at.toISOString(),
    })),
  };
};

/** Referral bonus credited per day, newest first, days with a bonus only. */
export const listReferralBonusHistory = async (ctx: ServiceContext, input: HistoryInput) => {
  const rows = await ctx.prisma.$queryRawUnsafe<DayRow[]>(
    `WITH days AS (
       SELECT (created_at AT TIME ZONE 'UTC')::date AS day, sum(amount)::bigint AS amount, count(*) AS payments,
              0::bigint AS unpaid
         FROM referral_bonuses WHERE upline_id = $1 AND paid AND amount > 0 GROUP BY 1)
     SELECT page.*, (SELECT count(*) FROM days) AS total, (SELECT coalesce(sum(amount), 0) FROM days)::bigint AS all_amount
       FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT * FROM days WHERE $4::date IS NULL OR day < $4::date
                                                   ORDER BY day DESC LIMIT $2 OFFSET $3) page ON true`,
    input.userId,
    ...historyPosition(input),
  );
  return historyPage(rows, input.page, input.limit);
};

/** Matching bonus of one UTC day per partner and generation; credited once the day's payout ran. */
export const getMatchingBonusDetail = async (
  ctx: ServiceContext,
  input: { userId: number; date: string },
) => {
  const now = ctx.clock.now();
  const date = resolveDay(input.date, now);
  const rows = await ctx.prisma.$queryRawUnsafe<
    Array<{
      uid: number;
      username: string;
      first_name: string;
      generation: number;
      fee: bigint;
      rate_pct: string;
      amount: bigint;
      unpaid: bigint;
    }>
  >(
    `SELECT u.uid, u.username, u.first_name, a.generation, sum(a.fee)::bigint AS fee, a.rate_pct::text AS rate_pct,
            sum(a.amount)::bigint AS amount, count(*) FILTER (WHERE a.payout_transfer_id IS NULL) AS unpaid
       FROM matching_accruals a JOIN users u ON u.id = a.partner_id
      WHERE a.upline_id = $1 AND a.day = $2::date
      GROUP BY u.uid, u.username, u.first_name, a.generation, a.rate_pct
      ORDER BY a.generation, amount DESC, u.uid`,
    input.userId,
    date,
  );
  const pending = date >= utcDay(now) || rows.some((row) => BigInt(row.unpaid) > 0n);
  const license = await getUserLicense(ctx, { userId: input.userId });
  return {
    date,
    status: pending ? ('pending' as const) : ('credited' as const),
    matchingGenerations: license.expired ? 0 : license.matchingGenerations,
    total: fromMicro(rows.reduce((sum, row) => sum + BigInt(row.amount), 0n)),
    items: rows.map((row) => ({
      from: refOf(row),
      generation: Number(row.generation),
      tradeFee: fromMicro(BigInt(row.fee)),
      ratePct: String(Number(row.rate_pct)),
      amount: fromMicro(BigInt(row.amount)),
    })),
  };
};

/** Matching bonus per day, newest first (today's and unpaid days `pending`). */
export const listMatchingBonusHistory = async (ctx: ServiceContext, input: HistoryInput) => {
  const rows = await ctx.prisma.$queryRawUnsafe<DayRow[]>(
    `WITH days AS (
       SELECT day, sum(amount)::bigint AS amount, count(DISTINCT fee_transfer_id) AS payments,
              count(*) FILTER (WHERE payout_transfer_id IS NULL) AS unpaid
         FROM matching_accruals WHERE upline_id = $1 GROUP BY day)
     SELECT page.*, (SELECT count(*) FROM days) AS total, (SELECT coalesce(sum(amount), 0) FROM days)::bigint AS all_amount
       FROM (SELECT 1) one LEFT JOIN LATERAL (SELECT * FROM days WHERE $4::date IS NULL OR day < $4::date
                                                   ORDER BY day DESC LIMIT $2 OFFSET $3) page ON true`,
    input.userId,
    ...historyPosition(input),
  );
  return historyPage(rows, input.page, input.limit);
};

/** The month a partner period names (`current_month`, `last_month` or `YYYY-MM`). */
const resolveMonth = (period: string, now: Date): string => {
  if (period === 'current_month') return monthOf(now);
  if (period === 'last_month') return previousMonth(monthOf(now));
  return period;
};

const HISTORY_MONTHS = 12;

/**
 * A month's figures for its earner: qualified only with the partners and the earner's own paid
 * licence at the month's end (docs/bonuses.md#who-earns); a month already paid was qualified.
 */
const earnerMonth = async (ctx: ServiceContext, userId: number, month: string, paid: boolean) => {
  const partners = await expansionPartners(ctx.prisma, userId, month);
  const figures = expansionMonth(partners);
  const licenseQualifies = paid || (await expansionLicenseQualifies(ctx.prisma, userId, month));
  const qualified = paid || (figures.qualified && licenseQualifies);
  return { partners, figures, licenseQualifies, qualified, bonus: qualified ? figures.bonus : 0n };
};

/** The network expansion month: progress, pool, projected bonus, registrations and past months. */
export const getNetworkExpansion = async (ctx: ServiceContext, input: { userId: number; period: string }) => {
  const now = ctx.clock.now();
  const month = resolveMonth(input.period, now);
  const user = await ctx.prisma.user.findUniqueOrThrow({
    where: { id: input.userId },
    select: { createdAt: true },
  });
  const payouts = await ctx.prisma.networkExpansionPayout.findMany({ where: { userId: input.userId } });
  const paidAt = new Map(payouts.map((p) => [utcDay(p.month).slice(0, 7), p.createdAt.toISOString()]));
  const current = await earnerMonth(ctx, input.userId, month, paidAt.has(month));
  const { partners, figures: result } = current;
  const history = [];
  let past = previousMonth(month);
  for (let i = 0; i < HISTORY_MONTHS && monthRange(past).to > user.createdAt; i += 1) {
    const earned = await earnerMonth(ctx, input.userId, past, paidAt.has(past));
    history.push({
      month: past,
      qualified: earned.qualified,
      qualifyingPartners: earned.figures.qualifyingPartners,
      pool: fromMicro(earned.figures.pool),
      bonus: fromMicro(earned.bonus),
      paidAt: paidAt.get(past) ?? null,
    });
    past = previousMonth(past);
  }
  return {
    month,
    requiredPartners: NETWORK_EXPANSION_REQUIRED_PARTNERS,
    qualifyingPartners: result.qualifyingPartners,
    qualified: current.qualified,
    licenseQualifies: current.licenseQualifies,
    ratePct: NETWORK_EXPANSION_RATE_PCT,
    pool: fromMicro(result.pool),
    projectedBonus: fromMicro(current.bonus),
    payoutDate: utcDay(monthRange(month).to),
    registrations: partners.map((p) => ({
      uid: p.uid,
      username: p.username || null,
      firstName: p.firstName,
      line: p.line,
      registeredAt: p.registeredAt.toISOString(),
      licenseLevel: p.licenseLevel,
      licensePurchase: fromMicro(p.purchased),
      qualifying: p.line === 1 && p.purchased > 0n,
    })),
    history,
  };
};
