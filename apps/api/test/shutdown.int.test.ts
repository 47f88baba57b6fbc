import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { stopApi } from '../src/start';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * The API's graceful stop (docs/operations.md#shutdown), as SIGTERM runs it through runMain and the
 * app's stop: /readyz answers 503 first, the port stops accepting, and a request already in flight
 * still gets its whole answer.
 */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** One GET on a fresh connection (no keep-alive: each probe is a new client). */
const fetchOnce = (url: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    get(url, { agent: false }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });

describe('stopping the API', () => {
  it('turns /readyz to 503 first, refuses new connections, and finishes the request in flight', async () => {
    let entered = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    let finish = () => {};
    const gate = new Promise<void>((resolve) => {
      finish = resolve;
    });
    t = await createTestApp(
      // Long enough that the probe below lands inside the delay even on a loaded machine.
      { SHUTDOWN_DELAY_MS: '3000' },
      {
        routes: (app) => {
          app.get('/test/slow', async () => {
            entered();
            await gate;
            return { done: true };
          });
        },
      },
    );
    const app = t.app;
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    const slow = fetchOnce(`${base}/test/slow`);
    await inside;
    const stopping = stopApi(app);

    const ready = await fetchOnce(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toMatchObject({ status: 'stopping' });
    expect((await fetchOnce(`${base}/healthz`)).status).toBe(200);

    // After the delay the listener closes while the slow request is still running.
    while (app.server.listening) await new Promise((resolve) => setTimeout(resolve, 20));
    await expect(fetchOnce(`${base}/healthz`)).rejects.toThrow(/ECONNREFUSED/);

    finish();
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ done: true });
    await stopping;
  });
});
