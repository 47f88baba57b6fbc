import { loggerOptions } from '@gridbot/runtime';
import Fastify, { type FastifyInstance } from 'fastify';
import { tronControlRoutes } from './routes/tron-control-routes';
import { tronNodeRoutes } from './routes/tron-node-routes';
import { type GenesisAllocation, SandboxTron, type SandboxTronOptions } from './sandbox-tron';
import { openJournaledTron } from './tron-journal';

export type SandboxTronServerOptions = {
  /** Default 127.0.0.1. The control API answers loopback clients only, whatever the host. */
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** Produce a block every this many ms (default 3000, TRON's pace; 0: only through the control API). */
  blockIntervalMs?: number;
  /** Chain time between blocks (default 3000 ms, whatever the real pace). */
  blockTimeMs?: number;
  /** Blocks between head and solidified block (default 19). */
  solidityLag?: number;
  /** Addresses funded in the genesis block, e.g. the hot wallet (a new chain only). */
  genesis?: GenesisAllocation[];
  /** Keep the chain in this journal file across restarts (absent: memory only). */
  stateFile?: string;
  logLevel?: string;
};

export type SandboxTronHandle = {
  /** Base URL of the node, e.g. http://127.0.0.1:41235 (tronweb's fullHost). */
  url: string;
  port: number;
  tron: SandboxTron;
  close(): Promise<void>;
};

export const buildSandboxTronApp = (tron: SandboxTron, logLevel?: string): FastifyInstance => {
  const app = Fastify({ logger: logLevel ? loggerOptions(logLevel) : false, bodyLimit: 8 * 1024 * 1024 });
  // tronweb POSTs `null` for a call without parameters; an empty body is no body.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body).trim();
    if (text === '' || text === 'null') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      Object.assign(error as Error, { statusCode: 400 });
      done(error as Error, undefined);
    }
  });
  app.setErrorHandler(async (error, request, reply) => {
    const failure = error as { statusCode?: number; message: string };
    if ((failure.statusCode ?? 500) >= 500) request.log.error(error);
    // java-tron answers a malformed call with HTTP 200 and `{ Error }`.
    return reply.status(200).send({ Error: failure.message });
  });
  app.get('/health', async () => ({ ok: true, services: ['tron'] }));
  // Every call of the node's API is counted (per path and API key) and spends its key's budget,
  // when one is imposed; beyond it the node refuses the call as TronGrid does.
  app.addHook('onRequest', async (request, reply) => {
    const route = request.routeOptions.url ?? '';
    if (!route.startsWith('/wallet/') && !route.startsWith('/walletsolidity/')) return;
    const key = request.headers['tron-pro-api-key'];
    const admission = tron.traffic.admit(route, typeof key === 'string' ? key : null);
    if (admission.ok) return;
    if (admission.retryAfterS !== undefined) void reply.header('retry-after', String(admission.retryAfterS));
    await reply.status(admission.status).send({ Error: admission.message });
  });
  tronNodeRoutes(app, tron);
  void app.register(tronControlRoutes, { tron });
  return app;
};

/**
 * Starts the sandbox TRON node: java-tron's HTTP API (tronweb's fullHost) plus the control API,
 * producing a block every `blockIntervalMs`. Use `port: 0` and `blockIntervalMs: 0` in tests and
 * produce blocks with `tron.mine()` or `POST /_sandbox/tron/blocks`.
 */
export const startSandboxTron = async (
  options: SandboxTronServerOptions = {},
): Promise<SandboxTronHandle> => {
  const chainOptions: SandboxTronOptions = {
    ...(options.blockTimeMs !== undefined ? { blockTimeMs: options.blockTimeMs } : {}),
    ...(options.solidityLag !== undefined ? { solidityLag: options.solidityLag } : {}),
  };
  const fresh = () => SandboxTron.freshConfig(options.genesis ?? []);
  const journaled = options.stateFile ? openJournaledTron(options.stateFile, fresh, chainOptions) : undefined;
  const tron = journaled?.tron ?? new SandboxTron(fresh(), chainOptions);
  const app = buildSandboxTronApp(tron, options.logLevel);
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    journaled?.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const interval = options.blockIntervalMs ?? 3000;
  const timer = interval > 0 ? setInterval(() => tron.mine(1), interval) : undefined;
  timer?.unref();
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return {
    url: `http://${urlHost.includes(':') ? `[${urlHost}]` : urlHost}:${port}`,
    port,
    tron,
    close: async () => {
      if (timer) clearInterval(timer);
      await app.close();
      journaled?.close();
    },
  };
};
