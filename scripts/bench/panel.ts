// Panel benchmark (docs/performance.md#panel): `POST /home/` with 10,000 users and 100,000 coin bots
// in PostgreSQL (10 coins each over 200 symbols, 3 open lots per coin bot, today's PnL rows and
// scanned prices). The API runs in a child process (one Node event loop: "one core"); this process
// sends the load over keep-alive HTTP.
//   1. Fixed rate: 500 req/s for RATE_SECONDS, each request a different user (round robin, so the
//      per-user rate limit of the contract is never hit): p50 / p99 latency. Target p99 ≤ 25 ms.
//   2. Throughput, closed loop with CONCURRENCY requests in flight, interleaved in ROUNDS with the
//      floor: a bare Fastify route (`GET /bench/bare`, `{ok:true}`) in the same API process.
//      Target ≥ 40 % of the floor.
// Uses DATABASE_URL or the local default; the test database is created and dropped here.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createTestDb } from '@gridbot/db/testing';
import { serveBenchApi } from './support/bench-api';
import { PANEL_SEED, seedPanel } from './support/seed-panel';

const { coinsPerUser: COINS_PER_USER, lotsPerBot: LOTS_PER_BOT } = PANEL_SEED;
const RATE = 500;
const RATE_SECONDS = 10;
const CONCURRENCY = 16;
const ROUNDS = 3;
const SLICE_SECONDS = 3;
const TARGET_P99_MS = 25;
const TARGET_RATIO = 0.4;

if (process.argv[2] === '--serve') {
  await serveBenchApi(process.argv[3] as string, process.argv[4] as string);
} else {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  const testDb = await createTestDb();
  if (!testDb.url) throw new Error('the panel bench needs PostgreSQL (DATABASE_URL)');
  const { prisma } = testDb;
  let child: ReturnType<typeof fork> | undefined;
  let failed = false;
  try {
    const started = Date.now();
    const users = await seedPanel(prisma);
    console.log(
      `seeded ${users.length} users, ${users.length * COINS_PER_USER} coin bots, ` +
        `${users.length * COINS_PER_USER * LOTS_PER_BOT} open lots in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );

    const jwt = randomBytes(32).toString('hex');
    const { createSessionTokens } = await import('@gridbot/services');
    const tokens = createSessionTokens(jwt);
    const headers = await Promise.all(
      users.map(async (u) => `Bearer ${(await tokens.issue({ userId: u.id, uid: u.uid })).token}`),
    );
    const profileAt = process.argv.indexOf('--profile');
    const profileDir = profileAt > 0 ? process.argv[profileAt + 1] : undefined;
    child = fork(new URL(import.meta.url).pathname, ['--serve', testDb.url, jwt], {
      execArgv: ['--import', 'tsx', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
    });
    const port = await new Promise<number>((resolve, reject) => {
      child?.once('message', (m: { port: number }) => resolve(m.port));
      child?.once('exit', (code) => reject(new Error(`the API process exited (${code})`)));
    });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    let next = 0;
    const request = (path: string, method: string): Promise<{ ms: number; status: number }> =>
      new Promise((resolve, reject) => {
        const at = performance.now();
        const auth = headers[next++ % headers.length] as string;
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            path,
            method,
            agent,
            headers: { authorization: auth, 'content-length': 0 },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ ms: performance.now() - at, status: res.statusCode ?? 0 }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    const panel = () => request('/home/', 'POST');
    const bare = () => request('/bench/bare', 'GET');

    // Warm-up: every code path compiled and the pools full.
    for (let i = 0; i < 500; i++) await panel();
    const sample = await panel();
    if (sample.status !== 200) throw new Error(`POST /home/ answered ${sample.status}`);

    // 1. Fixed rate.
    const latencies: number[] = [];
    let errors = 0;
    const pending: Promise<void>[] = [];
    const startRate = performance.now();
    for (let i = 0; i < RATE * RATE_SECONDS; i++) {
      const due = startRate + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      pending.push(
        panel().then(({ ms, status }) => {
          latencies.push(ms);
          if (status !== 200) errors += 1;
        }),
      );
    }
    await Promise.all(pending);
    const achieved = (RATE * RATE_SECONDS) / ((performance.now() - startRate) / 1000);
    latencies.sort((a, b) => a - b);
    const pct = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] as number;

    // 2. Throughput against the floor, interleaved.
    const closedLoop = async (call: () => Promise<{ status: number }>) => {
      let done = 0;
      const until = performance.now() + SLICE_SECONDS * 1000;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (performance.now() < until) {
            const { status } = await call();
            if (status === 200) done += 1;
          }
        }),
      );
      return done;
    };
    let panelDone = 0;
    let bareDone = 0;
    for (let round = 0; round < ROUNDS; round++) {
      bareDone += await closedLoop(bare);
      panelDone += await closedLoop(panel);
    }
    // 3. Where the time goes: the panel service alone (no HTTP) and a bare `SELECT 1`, same pool size.
    const { createDb } = await import('@gridbot/db');
    const { loadEnv } = await import('@gridbot/config');
    const { createServiceContext, getPanel } = await import('@gridbot/services');
    const direct = await createDb({ databaseUrl: testDb.url, poolMax: 10 });
    const directCtx = createServiceContext({
      prisma: direct.prisma,
      env: loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
      log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} },
    } as never);
    let nextUser = 0;
    const serviceDone = await closedLoop(async () => {
      await getPanel(directCtx, { userId: users[nextUser++ % users.length]?.id as number });
      return { status: 200 };
    });
    const selectDone = await closedLoop(async () => {
      await direct.prisma.$queryRaw`SELECT 1`;
      return { status: 200 };
    });
    await direct.close();
    console.log(
      `  getPanel service alone ${(serviceDone / SLICE_SECONDS).toFixed(0)} q/s, SELECT 1 ${(selectDone / SLICE_SECONDS).toFixed(0)} q/s (same process, no HTTP)`,
    );
    const seconds = ROUNDS * SLICE_SECONDS;
    const panelRps = panelDone / seconds;
    const bareRps = bareDone / seconds;
    const ratio = panelRps / bareRps;
    const p99 = pct(0.99);
    console.log(
      `fixed rate ${RATE} req/s for ${RATE_SECONDS} s (achieved ${achieved.toFixed(0)} req/s), ${errors} non-200`,
    );
    console.log(
      `  latency p50 ${pct(0.5).toFixed(2)} ms   p90 ${pct(0.9).toFixed(2)} ms   p99 ${p99.toFixed(2)} ms   max ${(latencies.at(-1) as number).toFixed(2)} ms`,
    );
    console.log(`throughput (${CONCURRENCY} in flight, ${ROUNDS} × ${SLICE_SECONDS} s interleaved):`);
    console.log(`  POST /home/        ${panelRps.toFixed(0)} req/s`);
    console.log(`  bare Fastify route ${bareRps.toFixed(0)} req/s (floor)`);
    console.log(`  ratio ${(ratio * 100).toFixed(1)} % of the floor`);
    const pass = p99 <= TARGET_P99_MS && ratio >= TARGET_RATIO && errors === 0;
    console.log(
      `${pass ? 'PASS' : 'FAIL'}: target p99 ≤ ${TARGET_P99_MS} ms at ${RATE} req/s and ≥ ${TARGET_RATIO * 100} % of a bare route (docs/performance.md#panel)`,
    );
    failed = !pass;
    agent.destroy();
  } finally {
    child?.kill();
    await testDb.close();
  }
  process.exit(failed ? 1 : 0);
}
