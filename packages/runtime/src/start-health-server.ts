import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Env } from '@gridbot/config';
import { collectProcessMetrics, metricsAllowed, renderMetrics } from '@gridbot/metrics';
import type { Logger } from 'pino';
import { livenessBody, type Readiness, readinessStatusCode } from './readiness';

export type HealthServerOptions = {
  host: string;
  /** 0: any free port (tests). */
  port: number;
  readiness: Readiness;
  /** METRICS_TOKEN: /metrics asks for this bearer token when set. */
  metricsToken?: string | undefined;
  log?: Logger;
};

export type HealthServer = { url: string; port: number; close: () => Promise<void> };

const sendJson = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
};

const handle = async (options: HealthServerOptions, req: IncomingMessage, res: ServerResponse) => {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return sendJson(res, 405, { error: 'method not allowed' });
  if (path === '/healthz') return sendJson(res, 200, livenessBody());
  if (path === '/readyz') {
    const report = await options.readiness.report();
    return sendJson(res, readinessStatusCode(report), report);
  }
  if (path === '/metrics') {
    if (!metricsAllowed(req.headers.authorization, options.metricsToken)) {
      return sendJson(res, 401, { error: 'unauthorized' });
    }
    const { contentType, body } = await renderMetrics();
    res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
    return res.end(body);
  }
  return sendJson(res, 404, { error: 'not found' });
};

/**
 * The health port of a process without an HTTP app of its own (worker, watcher, bot, sandbox):
 * GET /healthz (liveness), /readyz (readiness, 503 naming the failing dependency or `stopping`)
 * and /metrics (Prometheus), nothing else (docs/operations.md#health). Plain node:http: it must
 * answer while the app's own work is stuck, and costs nothing when nobody asks.
 */
export const startHealthServer = async (options: HealthServerOptions): Promise<HealthServer> => {
  collectProcessMetrics();
  const server = createServer((req, res) => {
    handle(options, req, res).catch((error: unknown) => {
      options.log?.error({ err: error }, 'health server request failed');
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
    });
  });
  // Probes connect often; idle keep-alive sockets must not hold the stop up.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

/** Each app's health port when HEALTH_PORT is unset (docs/operations.md#ports). */
export const DEFAULT_HEALTH_PORTS = { worker: 9101, watcher: 9102, bot: 9103, sandbox: 9104 } as const;

/** The port this app's health server listens on, or undefined when HEALTH_PORT=off. */
export const healthPortOf = (
  env: { HEALTH_PORT?: number | 'off' | undefined },
  app: keyof typeof DEFAULT_HEALTH_PORTS,
): number | undefined => {
  if (env.HEALTH_PORT === 'off') return undefined;
  return env.HEALTH_PORT ?? DEFAULT_HEALTH_PORTS[app];
};

/**
 * Starts the health server of a process on its health port (HEALTH_PORT or the app's default;
 * none when HEALTH_PORT=off), listening on HOST like the API. Returns undefined when off.
 */
export const startAppHealthServer = async (
  env: Pick<Env, 'HEALTH_PORT' | 'HOST' | 'METRICS_TOKEN'>,
  app: keyof typeof DEFAULT_HEALTH_PORTS,
  readiness: Readiness,
  log: Logger,
): Promise<HealthServer | undefined> => {
  const port = healthPortOf(env, app);
  if (port === undefined) return undefined;
  try {
    const server = await startHealthServer({
      host: env.HOST,
      port,
      readiness,
      metricsToken: env.METRICS_TOKEN,
      log,
    });
    log.info(`${app} health on ${server.url} (/healthz, /readyz, /metrics)`);
    return server;
  } catch (error) {
    // A second replica on the same host finds the default port taken: it runs without a health
    // port rather than not at all. A port the operator chose must be free (the start fails).
    if (env.HEALTH_PORT !== undefined || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    log.warn(
      `${app}: health port ${port} is taken (another ${app} on this host?); running without one — set HEALTH_PORT`,
    );
    return undefined;
  }
};
