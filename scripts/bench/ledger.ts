// Ledger benchmark (docs/performance.md): ≥ 2,000 internal transfers per second on PostgreSQL with 32
// concurrent clients, zero invariant violations, and ≥ 50 % of the floor: a bare two-row UPDATE
// transaction (BEGIN; UPDATE a; UPDATE b; COMMIT over plain pg) with the same clients in the same run.
// Also measured: ledger_transfer() called through plain pg, which splits the gap between the floor
// and transfer() into "the SQL function" and "the Prisma call around it".
// 1,000 funded user accounts, random pairs. The three are interleaved (ROUNDS × SLICE_SECONDS each)
// so a neighbour's load on this shared machine hits all of them alike; each figure is its total
// over the rounds. Uses DATABASE_URL or the local default; the test database is created and dropped here.
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
import pg from 'pg';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const USERS = 1_000;
const CLIENTS = 32;
const ROUNDS = 3;
const SLICE_SECONDS = 2;
const TARGET_PER_SECOND = 2_000;
const TARGET_RATIO = 0.5;

type Step = (from: number, to: number, amount: bigint, key: string) => Promise<boolean>;
type Phase = { done: number; refused: number; seconds: number; perSecond: number };

const testDb = await createTestDb();
if (!testDb.url) throw new Error('the ledger bench needs PostgreSQL (DATABASE_URL)');
// createTestDb's own pool is capped at 4 connections; the bench opens one connection per client.
const db = await createDb({ databaseUrl: testDb.url, poolMax: CLIENTS });
const pool = new pg.Pool({ connectionString: testDb.url, max: CLIENTS });
// An idle connection dropped by the server emits 'error' on the pool; unhandled it would crash the run.
pool.on('error', () => {});
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
  await ensureAccount(prisma, SYSTEM_ACCOUNTS.chainClearing);
  const funding = toMicro('1000');
  // Funding goes through the public API too: it doubles as the warm-up of the Prisma pool.
  await runClients(accounts.length, async (i) => {
    const account = accounts[i] as string;
    await ensureAccount(prisma, account);
    await transfer(prisma, {
      idempotencyKey: `fund:${account}`,
      type: 'deposit',
      legs: [
        { account: SYSTEM_ACCOUNTS.chainClearing, amount: -funding },
        { account, amount: funding },
      ],
    });
  });
  // The floor's own table: same row count, a primary key and a bigint, nothing else.
  await pool.query(`CREATE TABLE bench_floor (id INTEGER PRIMARY KEY, balance BIGINT NOT NULL);
    INSERT INTO bench_floor SELECT g, 1000000000 FROM generate_series(0, ${USERS - 1}) g`);
  // Warm the plain pg pool to CLIENTS connections so no phase pays for connecting.
  await Promise.all(Array.from({ length: CLIENTS }, () => pool.query('SELECT 1')));
  console.log(
    `funded ${accounts.length} accounts with 1000 USDT each; ${ROUNDS} rounds of ${SLICE_SECONDS} s per phase`,
  );

  const floorStep: Step = async (from, to, amount) => {
    // Rows in one order (like the ledger's code order), else random pairs deadlock.
    const [first, second] = from < to ? [from, to] : [to, from];
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('UPDATE bench_floor SET balance = balance - $2 WHERE id = $1', [first, amount]);
      await client.query('UPDATE bench_floor SET balance = balance + $2 WHERE id = $1', [second, amount]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
    return true;
  };
  const sqlFunctionStep: Step = async (from, to, amount, key) => {
    const legs = [
      { account: accounts[from] as string, amount: -amount },
      { account: accounts[to] as string, amount },
    ].sort((a, b) => (a.account < b.account ? -1 : 1));
    try {
      await pool.query(`SELECT * FROM ledger_transfer($1, 'transfer_out', NULL, $2::text[], $3::bigint[])`, [
        `pg:${key}`,
        legs.map((leg) => leg.account),
        legs.map((leg) => leg.amount.toString()),
      ]);
    } catch (error) {
      if ((error as { code?: string }).code === 'LF001') return false;
      throw error;
    }
    return true;
  };
  const apiStep: Step = async (from, to, amount, key) => {
    try {
      await transfer(prisma, {
        idempotencyKey: `api:${key}`,
        type: 'transfer_out',
        legs: [
          { account: accounts[from] as string, amount: -amount },
          { account: accounts[to] as string, amount },
        ],
      });
    } catch (error) {
      if (!isLedgerError(error, 'INSUFFICIENT_FUNDS')) throw error;
      return false;
    }
    return true;
  };
  const floor = emptyPhase();
  const sqlFunction = emptyPhase();
  const api = emptyPhase();
  for (let round = 0; round < ROUNDS; round += 1) {
    await measure(floor, floorStep, `${round}`);
    await measure(sqlFunction, sqlFunctionStep, `${round}`);
    await measure(api, apiStep, `${round}`);
  }

  const report = await checkInvariants(prisma);
  const ratio = api.perSecond / floor.perSecond;
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  console.log(`floor (BEGIN; 2× UPDATE; COMMIT, plain pg): ${floor.perSecond}/s (${floor.done})`);
  console.log(
    `ledger_transfer() via plain pg:             ${sqlFunction.perSecond}/s (${sqlFunction.done}, ` +
      `${sqlFunction.refused} refused for funds), ${pct(sqlFunction.perSecond / floor.perSecond)} of the floor`,
  );
  console.log(
    `transfer() via Prisma:                      ${api.perSecond}/s (${api.done}, ${api.refused} refused ` +
      `for funds), ${pct(ratio)} of the floor, ${pct(api.perSecond / sqlFunction.perSecond)} of the plain-pg call`,
  );
  console.log(
    `targets: ≥ ${TARGET_PER_SECOND}/s ${verdict(api.perSecond >= TARGET_PER_SECOND)}, ` +
      `≥ ${pct(TARGET_RATIO)} of the floor ${verdict(ratio >= TARGET_RATIO)}`,
  );
  console.log(
    `invariants: ${report.ok ? 'ok' : 'VIOLATED'} (sum ${report.totalSum}, ${report.mismatches.length} mismatches)`,
  );
  failed = !report.ok || api.perSecond < TARGET_PER_SECOND || ratio < TARGET_RATIO;
} finally {
  await pool.end();
  await db.close();
  await testDb.close();
}
process.exitCode = failed ? 1 : 0;

function emptyPhase(): Phase {
  return { done: 0, refused: 0, seconds: 0, perSecond: 0 };
}

/**
 * CLIENTS workers run `step` on random account pairs for SLICE_SECONDS and add to `phase`; `step`
 * returns false when the transfer was refused for funds (counted apart, not as throughput).
 */
async function measure(phase: Phase, step: Step, round: string): Promise<void> {
  const deadline = performance.now() + SLICE_SECONDS * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = 0; performance.now() < deadline; n += 1) {
        const from = randomIndex(USERS);
        const to = (from + 1 + randomIndex(USERS - 1)) % USERS;
        const ok = await step(from, to, BigInt(1 + randomIndex(1_000_000)), `${round}:${client}:${n}`);
        if (ok === false) phase.refused += 1;
        else phase.done += 1;
      }
    }),
  );
  phase.seconds += (performance.now() - t0) / 1000;
  phase.perSecond = Math.round(phase.done / phase.seconds);
}

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

function pct(ratio: number): string {
  return `${Math.round(ratio * 100)} %`;
}
