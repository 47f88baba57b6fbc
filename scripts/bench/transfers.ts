// Internal transfer benchmark (docs/performance.md#wallet-transfers): `POST /wallet/inner_transaction`
// through the real API on PostgreSQL with 32 concurrent clients, next to two floors measured in the
// same run and interleaved with it (ROUNDS × SLICE_SECONDS each, so a neighbour's load on this
// shared machine hits all three alike):
//   - a bare Fastify route (`GET /bench/bare`, `{ok:true}`) in the same API process: the HTTP floor;
//   - a bare ledger transfer (`transfer()` of @gridbot/ledger over Prisma, same pool size as the
//     API's): the money floor, what a transfer costs without HTTP, auth, the recipient lookup and
//     the balances read back for the answer.
// The API runs in a child process (one Node event loop: "one core"); this process sends the load
// over keep-alive HTTP. Senders go round robin over USERS funded users, so the per-user rate limit
// (300 / min for calls without a limit of their own) never binds; recipients are random.
// At the end: the ledger's invariants, and the users' money still sums to what was funded.
// Uses DATABASE_URL or the local default; the test database is created and dropped here.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createTestDb } from '@gridbot/db/testing';
import { serveBenchApi } from './support/bench-api';

const USERS = 2_000;
const CLIENTS = 32;
const POOL = 10;
const ROUNDS = 3;
const SLICE_SECONDS = 3;
const FUNDING_USDT = '1000';
// The ratio is the target: absolute figures follow the machine's load (2 shared cores here).
const TARGET_RATIO = 0.35;

type Phase = { done: number; failed: number; seconds: number };

const closedLoop = async (phase: Phase, call: (client: number, n: number) => Promise<boolean>) => {
  const t0 = performance.now();
  const until = t0 + SLICE_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let n = 0; performance.now() < until; n += 1) {
        if (await call(client, n)) phase.done += 1;
        else phase.failed += 1;
      }
    }),
  );
  phase.seconds += (performance.now() - t0) / 1000;
};

const perSecond = (phase: Phase) => Math.round(phase.done / phase.seconds);
const pct = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

if (process.argv[2] === '--serve') {
  await serveBenchApi(process.argv[3] as string, process.argv[4] as string, POOL);
} else {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  const { createDb } = await import('@gridbot/db');
  const { checkInvariants, ensureAccount, SYSTEM_ACCOUNTS, toMicro, transfer, userAccountCode } =
    await import('@gridbot/ledger');
  const { createSessionTokens } = await import('@gridbot/services');
  const testDb = await createTestDb();
  if (!testDb.url) throw new Error('the transfers bench needs PostgreSQL (DATABASE_URL)');
  const db = await createDb({ databaseUrl: testDb.url, poolMax: POOL });
  const { prisma } = db;
  let child: ReturnType<typeof fork> | undefined;
  let failed = false;
  try {
    await prisma.$executeRawUnsafe(`
      INSERT INTO users (telegram_id, username, username_key, first_name, referral_code, updated_at)
      SELECT g, 'u' || g, 'u' || g, 'U', 'r' || g, now() FROM generate_series(1, ${USERS}) g`);
    const users = await prisma.user.findMany({ select: { id: true, uid: true }, orderBy: { id: 'asc' } });
    await ensureAccount(prisma, SYSTEM_ACCOUNTS.chainClearing);
    const funding = toMicro(FUNDING_USDT);
    let next = 0;
    await Promise.all(
      Array.from({ length: POOL }, async () => {
        for (let i = next++; i < users.length; i = next++) {
          const user = users[i] as { id: number };
          await ensureAccount(prisma, userAccountCode(user.id, 'main'));
          await ensureAccount(prisma, userAccountCode(user.id, 'fee'));
          await transfer(prisma, {
            idempotencyKey: `fund:${user.id}`,
            type: 'deposit',
            legs: [
              { account: SYSTEM_ACCOUNTS.chainClearing, amount: -funding },
              { account: userAccountCode(user.id, 'main'), amount: funding },
            ],
          });
        }
      }),
    );
    console.log(`funded ${users.length} users with ${FUNDING_USDT} USDT each`);

    const jwt = randomBytes(32).toString('hex');
    const tokens = createSessionTokens(jwt);
    const auth = await Promise.all(
      users.map(async (u) => `Bearer ${(await tokens.issue({ userId: u.id, uid: u.uid })).token}`),
    );
    child = fork(new URL(import.meta.url).pathname, ['--serve', testDb.url, jwt], {
      execArgv: ['--import', 'tsx'],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child?.once('message', (m: { port: number }) => resolve(m.port));
      child?.once('exit', (code) => reject(new Error(`the API process exited (${code})`)));
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const request = (path: string, method: string, authorization?: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            path,
            method,
            agent,
            headers: { 'content-length': 0, ...(authorization ? { authorization } : {}) },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          },
        );
        req.on('error', reject);
        req.end();
      });
    const randomUser = () => Math.floor(Math.random() * users.length);
    // Anyone but `from`.
    const otherThan = (from: number) =>
      (from + 1 + Math.floor(Math.random() * (users.length - 1))) % users.length;
    const amountText = () => (1 + Math.floor(Math.random() * 100) / 100).toFixed(2);
    let sender = 0;
    const statuses = new Map<number, number>();
    const apiTransfer = async () => {
      const from = sender++ % users.length;
      const to = otherThan(from);
      const to_user = (users[to] as { uid: number }).uid;
      const status = await request(
        `/wallet/inner_transaction?summ=${amountText()}&to_user=${to_user}`,
        'POST',
        auth[from],
      );
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      return status === 200;
    };
    const bare = async () => (await request('/bench/bare', 'GET')) === 200;
    const ledgerTransfer = async (client: number, n: number) => {
      const from = randomUser();
      const to = otherThan(from);
      const amount = toMicro(amountText());
      await transfer(prisma, {
        idempotencyKey: `floor:${client}:${n}:${randomBytes(4).toString('hex')}`,
        type: 'transfer_out',
        legs: [
          { account: userAccountCode((users[from] as { id: number }).id, 'main'), amount: -amount },
          { account: userAccountCode((users[to] as { id: number }).id, 'main'), amount },
        ],
      });
      return true;
    };

    // Warm-up: every code path compiled, both pools full.
    for (let i = 0; i < 300; i++) await apiTransfer();
    const phases = {
      bare: { done: 0, failed: 0, seconds: 0 },
      ledger: { done: 0, failed: 0, seconds: 0 },
      api: { done: 0, failed: 0, seconds: 0 },
    };
    for (let round = 0; round < ROUNDS; round++) {
      await closedLoop(phases.bare, bare);
      await closedLoop(phases.ledger, ledgerTransfer);
      await closedLoop(phases.api, apiTransfer);
    }
    const report = await checkInvariants(prisma);
    const [owned] = await prisma.$queryRawUnsafe<{ total: bigint }[]>(
      `SELECT sum(balance)::bigint AS total FROM ledger_accounts WHERE kind = 'user'`,
    );
    const conserved = BigInt(owned?.total ?? 0) === funding * BigInt(users.length);
    const api = perSecond(phases.api);
    const apiRatio = api / perSecond(phases.ledger);
    console.log(`${CLIENTS} clients, ${ROUNDS} rounds × ${SLICE_SECONDS} s interleaved, pool ${POOL}:`);
    console.log(`  POST /wallet/inner_transaction  ${api} transfers/s (${phases.api.failed} not 200)`);
    console.log(`  bare ledger transfer()          ${perSecond(phases.ledger)} transfers/s (money floor)`);
    console.log(`  bare Fastify route              ${perSecond(phases.bare)} req/s (HTTP floor)`);
    console.log(
      `  ratios: ${pct(apiRatio)} of the ledger floor, ${pct(api / perSecond(phases.bare))} of the bare route`,
    );
    console.log(`  statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
    console.log(
      `invariants: ${report.ok ? 'ok' : 'VIOLATED'}; users' money ${conserved ? 'conserved' : 'NOT CONSERVED'}`,
    );
    const pass = report.ok && conserved && phases.api.failed === 0 && apiRatio >= TARGET_RATIO;
    console.log(
      `${pass ? 'PASS' : 'FAIL'}: target ≥ ${pct(TARGET_RATIO)} of the ledger floor through the API, every request answered 200, books intact (docs/performance.md#wallet-transfers)`,
    );
    failed = !pass;
    agent.destroy();
  } finally {
    child?.kill();
    await db.close();
    await testDb.close();
  }
  process.exit(failed ? 1 : 0);
}
