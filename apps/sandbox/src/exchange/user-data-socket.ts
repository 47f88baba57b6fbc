import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { BinanceError, binanceErrors } from './binance-error';
import { asBinanceError } from './refusal';
import type { SandboxExchange } from './sandbox-exchange';
import { API_KEY, assertKeyAccess, checkSignature } from './signed-request';
import { answerPings, SILENCEABLE_SERVER } from './stream-silence';
import type { UserDataConnections } from './user-data-connections';
import type { UserDataEvent, UserDataStreams } from './user-data-streams';

/** Binance's spot stream path for a listenKey, and its WebSocket API (what ccxt pro uses for spot). */
const LISTEN_KEY_PATH = /^\/ws\/([A-Za-z0-9_-]{1,128})$/;
const WS_API_PATH = '/ws-api/v3';

type WsApiRequest = { id?: unknown; method?: unknown; params?: unknown };

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  404: 'Not Found',
  429: 'Too Many Requests',
};

const refuse = (socket: Duplex, status: number, error: BinanceError, retryAfterMs?: number) => {
  const body = JSON.stringify(error.toJSON());
  const retryAfter = retryAfterMs === undefined ? '' : `Retry-After: ${Math.ceil(retryAfterMs / 1000)}\r\n`;
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? 'Error'}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${retryAfter}Connection: close\r\n\r\n${body}`,
  );
};

/**
 * Serves the user data stream over WebSocket on the exchange's HTTP server:
 * - `/ws/<listenKey>`: Binance's listenKey stream, events as bare JSON objects;
 * - `/ws-api/v3`: Binance's WebSocket API, where `userDataStream.subscribe.signature` (a signed
 *   request) subscribes the connection to its key's account, events wrapped as
 *   `{ subscriptionId, event }`. ccxt 4.5's binance `watchOrders` takes this path for spot.
 * A bad listenKey is refused at the handshake (HTTP 400 with Binance's -1125). A connection
 * carrying a silenced account (`exchange.streamSilence`, stream-silence.ts) sends nothing and reads
 * nothing until the fault is lifted.
 */
export const attachUserDataSocket = (
  server: Server,
  exchange: SandboxExchange,
  streams: UserDataStreams,
  connections: UserDataConnections,
) => {
  const wss = new WebSocketServer(SILENCEABLE_SERVER);

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const listenKey = LISTEN_KEY_PATH.exec(path)?.[1];
    if (listenKey !== undefined) {
      const accountId = streams.accountOf(listenKey);
      if (accountId === undefined) return refuse(socket, 400, binanceErrors.listenKeyUnknown());
      return wss.handleUpgrade(request, socket, head, (ws) =>
        serveListenKey(ws, exchange, streams, accountId, listenKey),
      );
    }
    if (path === WS_API_PATH) {
      const ip = request.socket.remoteAddress ?? '';
      let id: number;
      try {
        id = connections.admit(ip);
      } catch (error) {
        const refusal = error as BinanceError & { retryAfterMs?: number };
        return refuse(socket, refusal.httpStatus, refusal, refusal.retryAfterMs);
      }
      return wss.handleUpgrade(request, socket, head, (ws) =>
        serveWsApi(ws, { exchange, streams, connections, id, ip }),
      );
    }
    refuse(socket, 404, binanceErrors.notFound());
  };
  server.on('upgrade', onUpgrade);

  return {
    close: () => {
      server.off('upgrade', onUpgrade);
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
};

const sendJson = (ws: WebSocket, value: unknown) => {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(value));
};

const serveListenKey = (
  ws: WebSocket,
  exchange: SandboxExchange,
  streams: UserDataStreams,
  accountId: number,
  listenKey: string,
) => {
  const silent = () => exchange.streamSilence.covers([accountId]);
  answerPings(ws, silent);
  const unsubscribe = streams.subscribe(accountId, {
    listenKey,
    send: (event) => {
      if (!silent()) sendJson(ws, event);
    },
    end: () => ws.close(1000, 'listenKey closed'),
  });
  ws.on('close', unsubscribe);
  // A client's own messages mean nothing on a listenKey stream.
  ws.on('message', () => undefined);
};

/** Thrown for a request the silent server does not answer. */
const UNANSWERED = Symbol('unanswered');

type WsApiSession = {
  exchange: SandboxExchange;
  streams: UserDataStreams;
  connections: UserDataConnections;
  id: number;
  ip: string;
};

/**
 * One WebSocket API connection (web-socket-api.md): many accounts' subscriptions, each event
 * wrapped as `{ subscriptionId, event }`; at most `subscriptionsPerConnection` active (-1191) and
 * `subscriptionsPerConnectionLifetime` ever (-2042), one per account (-2035); a ping every
 * `pingIntervalMs`, dropped without a pong for `pongTimeoutMs`; closed when its life ends, or after
 * a `serverShutdown` event when the control API says so. Silent (no answer, event, ping or pong)
 * while one of its subscriptions is a silenced account's, or every connection is silenced; a
 * subscription request naming a silenced account is left unanswered and not carried out.
 */
const serveWsApi = (ws: WebSocket, session: WsApiSession) => {
  const { exchange, streams, connections } = session;
  const limits = { ...connections.limits };
  const openedAt = Date.now();
  const subscriptions = new Map<number, { accountId: number; unsubscribe: () => void }>();
  let started = 0;
  let lastPong = Date.now();
  const timers: NodeJS.Timeout[] = [];
  const silent = () => exchange.streamSilence.covers([...subscriptions.values()].map((s) => s.accountId));
  const send = (value: unknown) => {
    if (!silent()) sendJson(ws, value);
  };
  answerPings(ws, silent);

  const remove = connections.add({
    view: () => ({
      id: session.id,
      ip: session.ip,
      openedAt,
      subscriptions: [...subscriptions.keys()],
      started,
    }),
    shutdown: (closeAfterMs) => {
      sendJson(ws, { event: { e: 'serverShutdown', E: Date.now() } });
      timers.push(setTimeout(() => ws.close(1001, 'server shutdown'), closeAfterMs));
    },
    drop: () => ws.terminate(),
  });
  // "A single connection to the API is only valid for 24 hours": Binance just disconnects.
  timers.push(setTimeout(() => ws.close(1000, 'connection life ended'), limits.connectionLifeMs));
  ws.on('pong', () => {
    lastPong = Date.now();
  });
  const ping = setInterval(() => {
    // A silent server neither pings nor drops the client it stopped pinging.
    if (silent()) {
      lastPong = Date.now();
      return;
    }
    if (Date.now() - lastPong > limits.pongTimeoutMs) return ws.terminate();
    ws.ping();
  }, limits.pingIntervalMs);
  timers.push(ping);
  for (const timer of timers) timer.unref?.();
  ws.on('close', () => {
    remove();
    for (const timer of timers) clearTimeout(timer);
    clearInterval(ping);
    for (const subscription of subscriptions.values()) subscription.unsubscribe();
    subscriptions.clear();
  });

  const subscribe = (params: Record<string, unknown>): { subscriptionId: number } => {
    const accountId = signedAccount(exchange, params, session.ip);
    if (exchange.streamSilence.covers([accountId])) throw UNANSWERED;
    for (const subscription of subscriptions.values()) {
      if (subscription.accountId === accountId) throw binanceErrors.subscriptionActive();
    }
    if (subscriptions.size >= limits.subscriptionsPerConnection)
      throw binanceErrors.tooManySubscriptions(limits.subscriptionsPerConnection);
    if (started >= limits.subscriptionsPerConnectionLifetime) throw binanceErrors.maximumSubscriptionIds();
    const subscriptionId = started++;
    const sendEvent = (event: UserDataEvent) => send({ subscriptionId, event });
    subscriptions.set(subscriptionId, {
      accountId,
      unsubscribe: streams.subscribe(accountId, { send: sendEvent, end: () => ws.close() }),
    });
    return { subscriptionId };
  };

  const unsubscribe = (params: Record<string, unknown>) => {
    const ids =
      params.subscriptionId === undefined ? [...subscriptions.keys()] : [Number(params.subscriptionId)];
    const ended: number[] = [];
    for (const subscriptionId of ids) {
      const subscription = subscriptions.get(subscriptionId);
      if (!subscription) continue;
      subscription.unsubscribe();
      subscriptions.delete(subscriptionId);
      ended.push(subscriptionId);
    }
    return ended;
  };

  ws.on('message', (data) => {
    if (silent()) return;
    let request: WsApiRequest;
    try {
      request = JSON.parse(String(data)) as WsApiRequest;
    } catch {
      return send({ id: null, status: 400, error: { code: -1000, msg: 'Malformed request.' } });
    }
    const { id } = request;
    const params = ((typeof request.params === 'object' && request.params) || {}) as Record<string, unknown>;
    try {
      const method = String(request.method);
      if (method === 'userDataStream.unsubscribe') {
        const ended = unsubscribe(params);
        send({ id, status: 200, result: {}, rateLimits: [] });
        // user-data-stream.md "Event Stream Terminated": sent for a subscription stopped this way.
        for (const subscriptionId of ended) {
          send({ subscriptionId, event: { e: 'eventStreamTerminated', E: Date.now() } });
        }
        return;
      }
      send({ id, status: 200, result: answer(method, params), rateLimits: [] });
    } catch (error) {
      if (error === UNANSWERED) return;
      const failure = asBinanceError(error) ?? binanceErrors.notFound();
      send({ id, status: failure.httpStatus, error: failure.toJSON() });
    }
  });

  const answer = (method: string, params: Record<string, unknown>): object => {
    if (method === 'userDataStream.subscribe.signature') {
      const result = subscribe(params);
      // A fault: carried out, but the answer is lost (the client's request times out).
      if (exchange.lostSubscribeAnswers > 0) {
        exchange.lostSubscribeAnswers--;
        throw UNANSWERED;
      }
      return result;
    }
    if (method === 'session.subscriptions')
      return [...subscriptions.keys()].map((subscriptionId) => ({ subscriptionId }));
    if (method === 'ping') return {};
    throw new BinanceError(-1100, `Unsupported method '${method}'.`);
  };
};

/**
 * The account of a signed WebSocket API request: Binance signs the parameters sorted by name as
 * `key=value&…` (without `signature`), with the same timestamp and recvWindow rules as REST.
 */
const signedAccount = (exchange: SandboxExchange, raw: Record<string, unknown>, ip: string): number => {
  const apiKey = typeof raw.apiKey === 'string' ? raw.apiKey : '';
  if (!API_KEY.test(apiKey)) throw binanceErrors.apiKeyFormat();
  const key = exchange.accounts.key(apiKey);
  if (!key) throw binanceErrors.apiKeyRejected();
  // A key restricted to trusted IPs answers only them, on the WebSocket API as on REST (-2015).
  assertKeyAccess(key, ip.replace(/^::ffff:/, ''));
  const params = new URLSearchParams();
  for (const name of Object.keys(raw).sort()) params.set(name, String(raw[name]));
  const payload = [...params.entries()]
    .filter(([name]) => name !== 'signature')
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  checkSignature(key, params, payload, exchange.now());
  return key.accountId;
};
