import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Env } from '@gridbot/config';
import { buildApp } from './app';
import type { AppDeps } from './types';

export type ApiApp = Awaited<ReturnType<typeof buildApp>>;

/** Finds the built web app: WEB_DIST, else apps/web/dist above the working directory or this file. */
export const findWebDist = (env: Env): string | undefined => {
  if (env.WEB_DIST) return resolve(env.WEB_DIST);
  const starts = [process.cwd(), dirname(new URL(import.meta.url).pathname)];
  for (const start of starts) {
    let dir = start;
    for (let i = 0; i < 6; i += 1) {
      const candidate = join(dir, 'apps/web/dist');
      if (existsSync(join(candidate, 'index.html'))) return candidate;
      dir = dirname(dir);
    }
  }
  return undefined;
};

/** The URL the app is reachable at: PUBLIC_URL, else the local address it listens on. */
export const publicUrlOf = (env: Env) => env.PUBLIC_URL ?? `http://localhost:${env.PORT}`;

/**
 * Builds the HTTP app on a ready service context and listens on HOST:PORT (or `port`). The caller
 * owns the database, the queue and Redis (it built the context): closing the app closes only HTTP.
 */
export const startApi = async (deps: AppDeps, port: number = deps.ctx.env.PORT) => {
  const app = await buildApp(deps);
  const { env } = deps.ctx;
  try {
    await app.listen({ host: env.HOST, port });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  // Port 0 listens on a free port: without PUBLIC_URL, the links the app hands out (the demo's
  // launch link) name that port, not 0.
  const address = app.server.address();
  if (!env.PUBLIC_URL && port === 0 && address && typeof address === 'object')
    deps.publicUrl = `http://localhost:${address.port}`;
  return app;
};

/**
 * The API's graceful stop (docs/operations.md#shutdown): /readyz answers 503 `stopping` at once;
 * after SHUTDOWN_DELAY_MS (a load balancer's time to notice) the listener closes, requests in
 * flight finish and idle connections close. The caller then closes the queue and the database.
 */
export const stopApi = async (app: Pick<ApiApp, 'readiness' | 'deps' | 'close'>): Promise<void> => {
  app.readiness.markStopping();
  const delayMs = app.deps.ctx.env.SHUTDOWN_DELAY_MS;
  if (delayMs > 0) await sleep(delayMs);
  await app.close();
};
