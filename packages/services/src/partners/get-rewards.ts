import type { getRewards } from '@gridbot/contracts';
import { fromMicro } from '@gridbot/ledger';
import type { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { cached, rewardsFingerprint } from './partner-cache';
import { resolveRewardPeriod } from './partner-periods';

type Rewards = z.output<typeof getRewards.response>;

/**
 * A reward is a credit to the user's main balance by a bonus transfer (docs/bonuses.md#rewards):
 * `matching_bonus` is matching, `referral_bonus` referral, and the network expansion bonus is known
 * by its own type or by a `referral_bonus` memo naming it (`bonus`/`kind` = network_expansion).
 * Read by type name as text, so the query stands whichever way it is booked.
 */
const KIND_SQL = `CASE
    WHEN t.type::text = 'matching_bonus' THEN 'matching'
    WHEN t.type::text LIKE 'network_expansion%'
      OR coalesce(t.memo->>'bonus', t.memo->>'kind') = 'network_expansion' THEN 'networkExpansion'
    ELSE 'referral' END`;

const BONUS_ENTRIES_SQL = `
  SELECT e.amount, t.created_at, ${KIND_SQL} AS kind
    FROM ledger_accounts a
    JOIN ledger_entries e ON e.account_id = a.id AND e.amount > 0
    JOIN ledger_transfers t ON t.id = e.transfer_id
   WHERE a.user_id = $1 AND a.sub_balance = 'main'
     AND (t.type::text IN ('referral_bonus', 'matching_bonus') OR t.type::text LIKE 'network_expansion%')`;

type DayRow = { day: string; kind: 'referral' | 'matching' | 'networkExpansion'; amount: string };

const sumDays = (rows: DayRow[]) => {
  const days = new Map<string, { referral: bigint; matching: bigint; networkExpansion: bigint }>();
  for (const row of rows) {
    const day = days.get(row.day) ?? { referral: 0n, matching: 0n, networkExpansion: 0n };
    day[row.kind] += BigInt(row.amount);
    days.set(row.day, day);
  }
  return [...days.entries()].sort(([a], [b]) => (a < b ? 1 : -1));
};

/** Bonus totals by kind for a period (default today) and per day with a reward, newest first. */
export const getPartnerRewards = async (
  ctx: ServiceContext,
  input: { userId: number; period: string },
): Promise<Rewards> => {
  const resolved = resolveRewardPeriod(input.period, ctx.clock.now());
  const fingerprint = await rewardsFingerprint(ctx, input.userId);
  const key = `partners:rewards:${input.userId}:${resolved.range.from}:${resolved.range.to}:${fingerprint}`;
  const figures = await cached(ctx, key, async () => {
    const rows = await ctx.prisma.$queryRawUnsafe<DayRow[]>(
      `SELECT to_char(b.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, b.kind, sum(b.amount)::text AS amount
         FROM (${BONUS_ENTRIES_SQL}) b
        WHERE ($2::timestamptz IS NULL OR b.created_at >= $2::timestamptz) AND b.created_at < $3
        GROUP BY 1, 2`,
      input.userId,
      resolved.from,
      resolved.until,
    );
    const totals = { referral: 0n, matching: 0n, networkExpansion: 0n };
    const days = sumDays(rows).map(([date, day]) => {
      totals.referral += day.referral;
      totals.matching += day.matching;
      totals.networkExpansion += day.networkExpansion;
      return {
        date,
        referral: fromMicro(day.referral),
        matching: fromMicro(day.matching),
        networkExpansion: fromMicro(day.networkExpansion),
        total: fromMicro(day.referral + day.matching + day.networkExpansion),
      };
    });
    return {
      total: fromMicro(totals.referral + totals.matching + totals.networkExpansion),
      referral: fromMicro(totals.referral),
      matching: fromMicro(totals.matching),
      networkExpansion: fromMicro(totals.networkExpansion),
      days,
    };
  });
  return { period: input.period, range: resolved.range, ...figures };
};

/** Rewards of today, of the current month and of all time (the partners overview). */
export const rewardTotals = async (
  ctx: ServiceContext,
  input: { userId: number },
): Promise<{ today: string; currentMonth: string; total: string }> => {
  const now = ctx.clock.now();
  const today = resolveRewardPeriod('today', now).from;
  const month = resolveRewardPeriod('current_month', now).from;
  const [row] = await ctx.prisma.$queryRawUnsafe<{ today: string; month: string; total: string }[]>(
    `SELECT coalesce(sum(b.amount) FILTER (WHERE b.created_at >= $2), 0)::text AS today,
            coalesce(sum(b.amount) FILTER (WHERE b.created_at >= $3), 0)::text AS month,
            coalesce(sum(b.amount), 0)::text AS total
       FROM (${BONUS_ENTRIES_SQL}) b`,
    input.userId,
    today,
    month,
  );
  return {
    today: fromMicro(BigInt(row?.today ?? '0')),
    currentMonth: fromMicro(BigInt(row?.month ?? '0')),
    total: fromMicro(BigInt(row?.total ?? '0')),
  };
};
