import { createDb, type Db } from '@gridbot/db';
import { createTestDb, type TestDb } from '@gridbot/db/testing';
import { createLogger } from '@gridbot/runtime';
import { createTestContext } from '@gridbot/services/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy';
import { createTestApp } from './support/test-app';

/**
 * /readyz follows the database (docs/operations.md#health): 503 naming it while it cannot be
 * reached, 200 again once it is back, without restarting the API. On PostgreSQL the server really
 * goes away (a TCP proxy in between is cut); PGlite runs inside the process, so there the database
 * stops answering instead (its one connection held by a transaction).
 */

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

type Inject = (o: { method: 'GET'; url: string }) => Promise<{ statusCode: number; json: () => unknown }>;

const readyz = async (app: { inject: Inject }) => {
  const res = await app.inject({ method: 'GET', url: '/readyz' });
  return {
    status: res.statusCode,
    body: res.json() as { status: string; failing: string[]; checks: Record<string, string> },
  };
};

/** Polls /readyz until it is 200 (a pool reconnects on the next query; no fixed wait). */
const readyAgain = async (app: { inject: Inject }) => {
  for (let i = 0; i < 100; i += 1) {
    const answer = await readyz(app);
    if (answer.status === 200) return answer;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return readyz(app);
};

describe('/readyz when the database goes away', () => {
  it.skipIf(!process.env.DATABASE_URL)(
    'PostgreSQL unreachable: 503 naming the database, then ready again',
    async () => {
      const testDb: TestDb = await createTestDb();
      closers.push(() => testDb.close());
      const url = new URL(testDb.url!);
      const proxy: TcpProxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      closers.push(() => proxy.close());
      url.host = `127.0.0.1:${proxy.port}`;
      const db: Db = await createDb({ databaseUrl: url.toString(), poolMax: 2 });
      closers.push(() => db.close());
      const ctx = createTestContext({ prisma: db.prisma });
      const app = await buildApp({
        ctx,
        logger: createLogger(ctx.env, 'api-test'),
        publicUrl: 'http://localhost',
      });
      closers.push(() => app.close());

      expect(await readyz(app)).toMatchObject({ status: 200, body: { status: 'ready' } });
      await proxy.cut();
      const down = await readyz(app);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({
        status: 'not_ready',
        failing: ['database'],
        checks: { queue: 'ok' },
      });
      expect(down.body.checks.database).not.toBe('ok');
      // Liveness is not readiness: the process itself is fine, nobody should restart it.
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

      await proxy.restore();
      expect(await readyAgain(app)).toMatchObject({ status: 200, body: { status: 'ready', failing: [] } });
    },
  );

  it.skipIf(!!process.env.DATABASE_URL)(
    'PGlite not answering: 503 naming the database, then ready again',
    async () => {
      const t = await createTestApp();
      closers.push(() => t.close());
      expect(await readyz(t.app)).toMatchObject({ status: 200, body: { status: 'ready' } });

      let release = () => {};
      let holding = () => {};
      const held = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const transaction = t.prisma.$transaction(
        async (tx) => {
          await tx.$queryRawUnsafe('SELECT 1');
          holding();
          await new Promise<void>((resolve) => {
            release = resolve;
          });
        },
        { timeout: 30_000 },
      );
      await held;
      const down = await readyz(t.app);
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'not_ready', failing: ['database'] });
      expect(down.body.checks.database).toMatch(/no answer within/);

      release();
      await transaction;
      expect(await readyAgain(t.app)).toMatchObject({ status: 200, body: { status: 'ready', failing: [] } });
    },
  );
});
