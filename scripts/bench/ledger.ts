// Ledger benchmark (DESIGN §8): ≥ 2,000 internal transfers per second on PostgreSQL with 32
// concurrent clients, zero invariant violations. 1,000 funded user accounts, random pairs, ~5 s.
// Uses DATABASE_URL or the local default; the test database is created and dropped here.
import { createDb } from '@gridbot/db';
import { createTestDb } from '@gridbot/db/testing';
import {
  checkInvariants,
  ensureAccount,
  isLedgerError,
  SYSTEM_ACCOUNTS,
  toMicro,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const USERS = 1_000;
const CLIENTS = 32;
const SECONDS = 5;
const TARGET_PER_SECOND = 2_000;

const testDb = await createTestDb();
// createTestDb's own pool is capped at 4 connections; the bench opens a second client on the same
// database with one connection per concurrent client.
if (!testDb.url) throw new Error('the ledger bench needs PostgreSQL (DATABASE_URL)');
const db = await createDb({ databaseUrl: testDb.url, poolMax: CLIENTS });
const { prisma } = db;
let failed = false;
try {
  await prisma.$executeRawUnsafe(`
    INSERT INTO users (telegram_id, username, username_key, first_name, referral_code, updated_at)
    SELECT g, 'u' || g, 'u' || g, 'U', 'r' || g, now() FROM generate_series(1, ${USERS}) g`);
  const userIds = (await prisma.user.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map(
    (u) => u.id,
  );
  const accounts = userIds.map((id) => userAccountCode(id, 'main'));
  await ensureAccount(prisma, SYSTEM_ACCOUNTS.house);
  const funding = toMicro('1000');
  // Funding goes through the public API too: it doubles as the warm-up.
  await runClients(accounts.length, async (i) => {
    const account = accounts[i] as string;
    await ensureAccount(prisma, account);
    await transfer(prisma, {
      idempotencyKey: `fund:${account}`,
      type: 'deposit',
      legs: [
        { account: SYSTEM_ACCOUNTS.house, amount: -funding },
        { account, amount: funding },
      ],
    });
  });
  console.log(`funded ${accounts.length} accounts with 1000 USDT each`);

  let done = 0;
  let refused = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = 0; performance.now() < deadline; n += 1) {
        const from = randomIndex(accounts.length);
        const to = (from + 1 + randomIndex(accounts.length - 1)) % accounts.length;
        const amount = BigInt(1 + randomIndex(1_000_000));
        try {
          await transfer(prisma, {
            idempotencyKey: `bench:${client}:${n}`,
            type: 'transfer_out',
            legs: [
              { account: accounts[from] as string, amount: -amount },
              { account: accounts[to] as string, amount },
            ],
          });
          done += 1;
        } catch (error) {
          if (!isLedgerError(error, 'INSUFFICIENT_FUNDS')) throw error;
          refused += 1;
        }
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const perSecond = Math.round(done / seconds);
  const report = await checkInvariants(prisma);
  console.log(
    `internal transfers: ${done} in ${seconds.toFixed(1)} s with ${CLIENTS} clients = ${perSecond}/s ` +
      `(target ≥ ${TARGET_PER_SECOND}/s: ${perSecond >= TARGET_PER_SECOND ? 'PASS' : 'FAIL'}, ` +
      `ratio ${(perSecond / TARGET_PER_SECOND).toFixed(2)}); refused for funds: ${refused}`,
  );
  console.log(
    `invariants: ${report.ok ? 'ok' : 'VIOLATED'} (sum ${report.totalSum}, ${report.mismatches.length} mismatches)`,
  );
  failed = !report.ok || perSecond < TARGET_PER_SECOND;
} finally {
  await db.close();
  await testDb.close();
}
process.exitCode = failed ? 1 : 0;

/** Runs job(0..count-1) on CLIENTS concurrent workers. */
async function runClients(count: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = next++; i < count; i = next++) await job(i);
    }),
  );
}

function randomIndex(size: number): number {
  return Math.floor(Math.random() * size);
}
