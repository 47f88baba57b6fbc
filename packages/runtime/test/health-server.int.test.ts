import { afterEach, describe, expect, it } from 'vitest';
import { createReadiness, type HealthServer, type Readiness, startHealthServer } from '../src';

/** The health port of the worker, watcher, bot and sandbox (docs/operations.md#health). */

let server: HealthServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async (readiness: Readiness, metricsToken?: string) => {
  server = await startHealthServer({ host: '127.0.0.1', port: 0, readiness, metricsToken });
  return server.url;
};

describe('the health server', () => {
  it('answers /healthz, and /readyz with 503 and the failing dependency in JSON', async () => {
    let up = false;
    const url = await start(
      createReadiness([
        {
          name: 'database',
          check: async () => {
            if (!up) throw new Error('connect ECONNREFUSED');
          },
        },
      ]),
    );
    const live = await fetch(`${url}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toMatchObject({ status: 'ok' });

    const down = await fetch(`${url}/readyz`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({
      status: 'not_ready',
      failing: ['database'],
      checks: { database: 'connect ECONNREFUSED' },
    });
    up = true;
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    expect((await fetch(`${url}/other`)).status).toBe(404);
  });

  it('serves /metrics, behind the bearer token when one is set', async () => {
    const url = await start(createReadiness([]), 'scrape-token-0123456789');
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    const res = await fetch(`${url}/metrics`, {
      headers: { authorization: 'Bearer scrape-token-0123456789' },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('# TYPE gridbot_reconcile_duration_seconds histogram');
  });

  it('answers `stopping` while its process stops', async () => {
    const readiness = createReadiness([]);
    const url = await start(readiness);
    readiness.markStopping();
    const res = await fetch(`${url}/readyz`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'stopping' });
  });
});
