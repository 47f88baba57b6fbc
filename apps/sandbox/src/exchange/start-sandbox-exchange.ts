import { setTimeout as sleep } from 'node:timers/promises';
import { loggerOptions } from '@gridbot/runtime';
import Fastify, { type FastifyInstance } from 'fastify';
import { type BybitDialect, buildBybitApp } from './bybit/bybit-app';
import { createSandboxControl, type SandboxControl } from './control';
import { enforceRateLimits } from './enforce-rate-limits';
import { buildOkxApp, type OkxDialect } from './okx/okx-app';
import type { PoolLimits } from './rate-limits';
import { asBinanceError } from './refusal';
import { accountRoutes } from './routes/account-routes';
import { bookRoutes } from './routes/book-routes';
import { capitalRoutes } from './routes/capital-routes';
import { controlRoutes } from './routes/control-routes';
import { marketDataRoutes } from './routes/market-data-routes';
import { orderRoutes } from './routes/order-routes';
import { userDataControlRoutes } from './routes/user-data-control-routes';
import { userDataStreamRoutes } from './routes/user-data-stream-routes';
import { DEFAULT_MARKETS, SandboxExchange, type SandboxMarketConfig } from './sandbox-exchange';
import { readSandboxState, SandboxStateError, type StateSaver, startStateSaver } from './state-file';
import { UserDataConnections, type UserDataLimits } from './user-data-connections';
import { attachUserDataSocket } from './user-data-socket';
import { UserDataStreams } from './user-data-streams';

export type SandboxExchangeOptions = {
  /** Default 127.0.0.1. The control API answers loopback clients only, whatever the host. */
  host?: string;
  /** 0 (the default) picks a free port; read the URL from the handle. */
  port?: number;
  /** The Bybit v5 dialect's port (0, the default, picks a free one; read `bybitUrl`). */
  bybitPort?: number;
  /** The OKX v5 dialect's port (0, the default, picks a free one; read `okxUrl`). */
  okxPort?: number;
  /** Lower (or raise) OKX's rate limits by pool id, e.g. `{ BALANCE: 2 }` (default: OKX's own, packages/venues). */
  okxLimits?: Record<string, number>;
  markets?: SandboxMarketConfig[];
  /** Trading fee in percent of the received asset (default 0.1, Binance's base rate). */
  feePct?: string;
  /**
   * Advance every price feed one step each `tickMs` milliseconds (0 or absent: prices move only
   * through the control API). A replayed candle takes four steps, so 250 ms plays a candle a second.
   */
  tickMs?: number;
  /**
   * Lower (or raise) Binance's rate limits by pool id, e.g. `{ REQUEST_WEIGHT: 600 }` (default:
   * Binance's own, packages/venues); the control API changes them while running.
   */
  limits?: PoolLimits;
  /** Fastify's log level (default: no logging). */
  logLevel?: string;
  /**
   * Keep the exchange's state (accounts, orders, trades, ids, price positions) in this file: loaded
   * at start, written atomically every `saveEveryMs` while it changes and on close. Absent: memory
   * only. An unusable file is refused with a SandboxStateError naming it.
   */
  stateFile?: string;
  /** Default 2000 ms. */
  saveEveryMs?: number;
  /** Where a failed periodic write is reported (default: stderr); the write is tried again later. */
  onSaveError?: (error: unknown) => void;
  /** The WebSocket API's limits (default Binance's: 300 connections per 5 min per IP, 24 h life, …). */
  userDataLimits?: Partial<UserDataLimits>;
};

export type SandboxExchangeHandle = {
  /** Base URL, e.g. http://127.0.0.1:41234 (Binance paths below it: /api/v3, /sapi/v1). */
  url: string;
  /** WebSocket base URL (user data streams: `<wsUrl>/ws/<listenKey>`, `<wsUrl>/ws-api/v3`). */
  wsUrl: string;
  port: number;
  /** Base URL of the Bybit v5 spot dialect on the same exchange (paths below it: /v5/…). */
  bybitUrl: string;
  bybitPort: number;
  /**
   * Base URL of the OKX v5 spot dialect on the same exchange (REST below it: /api/v5/…; the private
   * WebSocket at `ws://…/ws/v5/private`).
   */
  okxUrl: string;
  okxPort: number;
  /** The Bybit dialect's own controls (its private stream, rate limits, faults). */
  bybit: BybitDialect;
  /** The OKX dialect's own controls (its private WebSocket, rate limits and faults). */
  okx: OkxDialect;
  /** Trading fee in percent of the received asset. */
  feePct: string;
  control: SandboxControl;
  /** The transport-free state, for code that embeds the sandbox (the demo). */
  exchange: SandboxExchange;
  /** The accounts' user data streams (who is subscribed). */
  userDataStreams: UserDataStreams;
  /** The WebSocket API's connections, their limits and `serverShutdown`. */
  userDataConnections: UserDataConnections;
  close(): Promise<void>;
};

/** Builds the Fastify app speaking Binance's spot REST dialect (not listening yet). */
export const buildSandboxExchangeApp = (
  exchange: SandboxExchange,
  control: SandboxControl,
  logLevel?: string,
  streams = new UserDataStreams(exchange),
  connections = new UserDataConnections(),
) => {
  const app: FastifyInstance = Fastify({ logger: logLevel ? loggerOptions(logLevel) : false });
  // Signatures cover the body byte for byte, so keep it as the raw string.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, body),
  );
  // Binance's own connector sends `Content-Type: application/json` with an empty body on POST and
  // DELETE (its parameters are in the query string): an empty JSON body is no body. A JSON object
  // is for the control API; Binance's endpoints read only the query string or a form body.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      Object.assign(error as Error, { statusCode: 400 });
      done(error as Error, undefined);
    }
  });
  app.setErrorHandler(async (error, request, reply) => {
    const known = asBinanceError(error);
    if (known) return reply.status(known.httpStatus).send(known.toJSON());
    const failure = error as { validation?: unknown; statusCode?: number; message: string };
    if (failure.validation || (failure.statusCode ?? 500) < 500) {
      return reply.status(failure.statusCode ?? 400).send({ code: -1102, msg: failure.message });
    }
    request.log.error(error);
    return reply
      .status(500)
      .send({ code: -1000, msg: 'An unknown error occurred while processing the request.' });
  });
  app.get('/health', async () => ({ ok: true, services: ['exchange'] }));
  // Binance checks its limits first: a client over them is refused before anything else happens.
  enforceRateLimits(app, exchange.rateLimits, exchange.accounts);
  // An outage strikes Binance's own endpoints only; the control API keeps answering. A preHandler
  // like the limits' hook, and after it.
  app.addHook('preHandler', async (request, reply) => {
    const outage = exchange.currentOutage();
    if (!outage || !/^\/(api|sapi)\//.test(request.url)) return;
    if (outage.kind === 'error') {
      return reply
        .status(503)
        .send({ code: -1001, msg: 'Internal error; unable to process your request. Please try again.' });
    }
    if (
      outage.kind === 'timeout' &&
      !(request.method === 'POST' && request.url.startsWith('/api/v3/order'))
    ) {
      await sleep(outage.delayMs ?? 15_000);
    }
  });
  app.setNotFoundHandler(async (_request, reply) =>
    reply.status(404).send({ code: -1000, msg: 'Not found.' }),
  );
  void app.register(controlRoutes, { control });
  void app.register(userDataControlRoutes, { connections });
  marketDataRoutes(app, exchange);
  bookRoutes(app, exchange);
  accountRoutes(app, exchange);
  capitalRoutes(app, exchange);
  orderRoutes(app, exchange);
  userDataStreamRoutes(app, exchange, streams);
  const socket = attachUserDataSocket(app.server, exchange, streams, connections);
  // Before the server closes: an open WebSocket would keep it from closing.
  app.addHook('preClose', async () => {
    socket.close();
    streams.close();
  });
  return app;
};

/**
 * Starts the sandbox exchange: an HTTP server that ccxt's `binance` class talks to as it would to
 * Binance, plus the control handle. Use `port: 0` in tests.
 */
export const startSandboxExchange = async (
  options: SandboxExchangeOptions = {},
): Promise<SandboxExchangeHandle> => {
  const feePct = options.feePct ?? '0.1';
  const exchange = new SandboxExchange(options.markets ?? DEFAULT_MARKETS, feePct);
  if (options.limits) exchange.rateLimits.setLimits(options.limits);
  const saver = options.stateFile ? openState(exchange, options) : undefined;
  const control = createSandboxControl(exchange);
  const userDataStreams = new UserDataStreams(exchange);
  const userDataConnections = new UserDataConnections(options.userDataLimits);
  const app = buildSandboxExchangeApp(
    exchange,
    control,
    options.logLevel,
    userDataStreams,
    userDataConnections,
  );
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: options.port ?? 0 });
  } catch (error) {
    // A port taken: nothing of this attempt stays behind (the caller may try another port).
    saver?.close();
    await app.close().catch(() => undefined);
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  // The Bybit dialect: a second server on its own port, the same exchange (bybit/bybit-app.ts).
  const bybitApp = buildBybitApp(exchange, options.logLevel);
  try {
    await bybitApp.listen({ host, port: options.bybitPort ?? 0 });
  } catch (error) {
    await app.close();
    throw error;
  }
  const bybitAddress = bybitApp.server.address();
  const bybitPort =
    typeof bybitAddress === 'object' && bybitAddress ? bybitAddress.port : (options.bybitPort ?? 0);
  // The OKX dialect: a third server on its own port, the same exchange (okx/okx-app.ts).
  const okxApp = buildOkxApp(exchange, {
    ...(options.logLevel ? { logLevel: options.logLevel } : {}),
    ...(options.okxLimits ? { limits: options.okxLimits } : {}),
  });
  try {
    await okxApp.listen({ host, port: options.okxPort ?? 0 });
  } catch (error) {
    await Promise.all([app.close(), bybitApp.close()]);
    throw error;
  }
  const okxAddress = okxApp.server.address();
  const okxPort = typeof okxAddress === 'object' && okxAddress ? okxAddress.port : (options.okxPort ?? 0);
  const timer =
    options.tickMs && options.tickMs > 0 ? setInterval(() => exchange.advance(1), options.tickMs) : undefined;
  timer?.unref();
  const urlHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const bracketed = urlHost.includes(':') ? `[${urlHost}]` : urlHost;
  const hostPort = `${bracketed}:${port}`;
  return {
    url: `http://${hostPort}`,
    wsUrl: `ws://${hostPort}`,
    port,
    bybitUrl: `http://${bracketed}:${bybitPort}`,
    bybitPort,
    okxUrl: `http://${bracketed}:${okxPort}`,
    okxPort,
    bybit: bybitApp.bybit,
    okx: okxApp.okx,
    feePct,
    control,
    exchange,
    userDataStreams,
    userDataConnections,
    close: async () => {
      if (timer) clearInterval(timer);
      await Promise.all([app.close(), bybitApp.close(), okxApp.close()]);
      saver?.close();
    },
  };
};

const openState = (exchange: SandboxExchange, options: SandboxExchangeOptions): StateSaver => {
  const file = options.stateFile!;
  const saved = readSandboxState(file);
  if (saved) {
    try {
      exchange.load(saved);
    } catch (error) {
      throw new SandboxStateError(file, (error as Error).message);
    }
  }
  const report = options.onSaveError ?? ((error) => console.error(`sandbox state ${file}:`, error));
  return startStateSaver(exchange, file, options.saveEveryMs ?? 2000, report);
};
