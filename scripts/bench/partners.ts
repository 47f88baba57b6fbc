// Partner data benchmark (docs/bonuses.md#caches): 10,000 users in one referral tree (each user
// sponsors the next four: ~7 levels), a third of them with a licence purchase booked through the
// ledger this month. Measures the partner services as the API calls them, for the tree's top (the
// whole 9,999-partner downline) and for a user in the middle (a 1,364-partner downline):
//   cold = the statements themselves (every call with an empty cache), warm = cached figures (the
//   fingerprint lookups only). p50 / p99 over CALLS calls each, beside the floor: a bare SELECT 1
//   through Prisma in the same run. No target of its own (the design sets none for partner data).
// Uses DATABASE_URL or the local default; the test database is created and dropped here.
import { createTestDb } from '@gridbot/db/testing';
import { ensureAccount, SYSTEM_ACCOUNTS } from '@gridbot/ledger';
import {
  createMemoryCache,
  getDownlinePartner,
  getPartnerOverview,
  getPartnerRewards,
  getPartnerTree,
  listPartners,
  type ServiceContext,
} from '@gridbot/services';
import { createTestContext } from '@gridbot/services/testing';

const USERS = 10_000;
const FAN_OUT = 4;
const BUYERS_EVERY = 3;
const CALLS = 40;

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const testDb = await createTestDb();
if (!testDb.url) throw new Error('the partners bench needs PostgreSQL (DATABASE_URL)');
const { prisma } = testDb;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

const time = async (fn: () => Promise<unknown>) => {
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return `p50 ${percentile(samples, 0.5)?.toFixed(1)} ms, p99 ${percentile(samples, 0.99)?.toFixed(1)} ms`;
};

try {
  const started = Date.now();
  await prisma.$executeRawUnsafe(`
    INSERT INTO users (id, telegram_id, username, username_key, first_name, referral_code, sponsor_id, created_at, updated_at)
    SELECT g, g, 'u' || g, 'u' || g, 'U', 'r' || g, CASE WHEN g = 1 THEN NULL ELSE (g - 2) / ${FAN_OUT} + 1 END,
           now() - (${USERS} - g) * interval '5 minutes', now()
      FROM generate_series(1, ${USERS}) g`);
  await prisma.$executeRawUnsafe(`SELECT setval(pg_get_serial_sequence('users', 'id'), ${USERS})`);
  await ensureAccount(prisma, SYSTEM_ACCOUNTS.chainClearing);
  await ensureAccount(prisma, SYSTEM_ACCOUNTS.house);
  await prisma.$executeRawUnsafe(`
    INSERT INTO ledger_accounts (code, kind, user_id, sub_balance, overdraft)
    SELECT 'user:' || id || ':main', 'user', id, 'main', 'none' FROM users WHERE id % ${BUYERS_EVERY} = 0`);
  await prisma.$executeRawUnsafe(`
    SELECT ledger_transfer('deposit:' || id, 'deposit', '{}'::jsonb,
             ARRAY['system:chain_clearing', 'user:' || id || ':main'], ARRAY[-100000000, 100000000]::bigint[]),
           ledger_transfer('licence:' || id, 'license_purchase', '{"level":"PRO1"}'::jsonb,
             ARRAY['user:' || id || ':main', 'system:house'], ARRAY[-100000000, 100000000]::bigint[])
      FROM users WHERE id % ${BUYERS_EVERY} = 0 ORDER BY id`);
  await prisma.$executeRawUnsafe('ANALYZE');
  const buyers = await prisma.ledgerTransfer.count({ where: { type: 'license_purchase' } });
  console.log(
    `seeded ${USERS} users, ${buyers} licence purchases in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  console.log(
    `floor, a bare SELECT 1 through Prisma: ${await time(() => prisma.$queryRawUnsafe('SELECT 1'))}`,
  );
  const users = await prisma.user.findMany({ where: { id: { in: [1, 6, 342] } }, orderBy: { id: 'asc' } });
  const [top, middle, deep] = users as [(typeof users)[0], (typeof users)[0], (typeof users)[0]];
  const warm = createTestContext({ prisma });
  // A fresh cache per call: every call runs its statements.
  const cold: ServiceContext = {
    ...warm,
    get cache() {
      return createMemoryCache();
    },
  };
  for (const [label, user] of [
    ['top (9,999 partners)', top],
    ['middle', middle],
  ] as const) {
    const team = await getPartnerOverview(warm, { userId: user.id });
    console.log(`\n${label}: downline ${team.team.total}, team volume ${team.measures.teamVolume} USDT`);
    const calls: [string, (ctx: ServiceContext) => Promise<unknown>][] = [
      ['GET /partners/', (ctx) => getPartnerOverview(ctx, { userId: user.id })],
      [
        'POST /partners/my_partners/current_month',
        (ctx) => listPartners(ctx, { userId: user.id, period: 'current_month', page: 1, limit: 10 }),
      ],
      [
        'POST /partners/my_partners/structure',
        (ctx) => getPartnerTree(ctx, { userId: user.id, uid: user.uid }),
      ],
      [
        'POST /partners/my_partners/profile (deep partner)',
        (ctx) => getDownlinePartner(ctx, { userId: user.id, requiredUid: deep.uid }),
      ],
      ['POST /partners/my_rewards', (ctx) => getPartnerRewards(ctx, { userId: user.id, period: 'today' })],
    ];
    for (const [name, call] of calls) {
      console.log(`  ${name}: cold ${await time(() => call(cold))}; warm ${await time(() => call(warm))}`);
    }
  }
} finally {
  await testDb.close();
}
process.exit(0);
