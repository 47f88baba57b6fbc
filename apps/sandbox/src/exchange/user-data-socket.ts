import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import { BinanceError, binanceErrors } from './binance-error';
import type { SandboxExchange } from './sandbox-exchange';
import { API_KEY, checkSignature } from './signed-request';
import type { UserDataEvent, UserDataStreams } from './user-data-streams';

/** Binance's spot stream path for a listenKey, and its WebSocket API (what ccxt pro uses for spot). */
const LISTEN_KEY_PATH = /^\/ws\/([A-Za-z0-9_-]{1,128})$/;
const WS_API_PATH = '/ws-api/v3';

type WsApiRequest = { id?: unknown; method?: unknown; params?: unknown };

const refuse = (socket: Duplex, status: number, error: BinanceError) => {
  const body = JSON.stringify(error.toJSON());
  socket.end(
    `HTTP/1.1 ${status} Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
};

/**
 * Serves the user data stream over WebSocket on the exchange's HTTP server:
 * - `/ws/<listenKey>`: Binance's listenKey stream, events as bare JSON objects;
 * - `/ws-api/v3`: Binance's WebSocket API, where `userDataStream.subscribe.signature` (a signed
 *   request) subscribes the connection to its key's account, events wrapped as
 *   `{ subscriptionId, event }`. ccxt 4.5's binance `watchOrders` takes this path for spot.
 * A bad listenKey is refused at the handshake (HTTP 400 with Binance's -1125).
 */
export const attachUserDataSocket = (server: Server, exchange: SandboxExchange, streams: UserDataStreams) => {
  const wss = new WebSocketServer({ noServer: true });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    const listenKey = LISTEN_KEY_PATH.exec(path)?.[1];
    if (listenKey !== undefined) {
      const accountId = streams.accountOf(listenKey);
      if (accountId === undefined) return refuse(socket, 400, binanceErrors.listenKeyUnknown());
      return wss.handleUpgrade(request, socket, head, (ws) =>
        serveListenKey(ws, streams, accountId, listenKey),
      );
    }
    if (path === WS_API_PATH) {
      return wss.handleUpgrade(request, socket, head, (ws) => serveWsApi(ws, exchange, streams));
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

const serveListenKey = (ws: WebSocket, streams: UserDataStreams, accountId: number, listenKey: string) => {
  const unsubscribe = streams.subscribe(accountId, {
    listenKey,
    send: (event) => sendJson(ws, event),
    end: () => ws.close(1000, 'listenKey closed'),
  });
  ws.on('close', unsubscribe);
  // A client's own messages mean nothing on a listenKey stream.
  ws.on('message', () => undefined);
};

const serveWsApi = (ws: WebSocket, exchange: SandboxExchange, streams: UserDataStreams) => {
  const subscriptions = new Map<number, () => void>();
  let nextSubscriptionId = 0;
  ws.on('close', () => {
    for (const unsubscribe of subscriptions.values()) unsubscribe();
  });

  const subscribe = (params: Record<string, unknown>): { subscriptionId: number } => {
    const accountId = signedAccount(exchange, params);
    const subscriptionId = nextSubscriptionId++;
    const send = (event: UserDataEvent) => sendJson(ws, { subscriptionId, event });
    subscriptions.set(subscriptionId, streams.subscribe(accountId, { send, end: () => ws.close() }));
    return { subscriptionId };
  };

  ws.on('message', (data) => {
    let request: WsApiRequest;
    try {
      request = JSON.parse(String(data)) as WsApiRequest;
    } catch {
      return sendJson(ws, { id: null, status: 400, error: { code: -1000, msg: 'Malformed request.' } });
    }
    const { id } = request;
    const params = (typeof request.params === 'object' && request.params) || {};
    try {
      const result = answer(String(request.method), params as Record<string, unknown>);
      sendJson(ws, { id, status: 200, result, rateLimits: [] });
    } catch (error) {
      const failure = error instanceof BinanceError ? error : binanceErrors.notFound();
      sendJson(ws, { id, status: failure.httpStatus, error: failure.toJSON() });
    }
  });

  const answer = (method: string, params: Record<string, unknown>): object => {
    if (method === 'userDataStream.subscribe.signature') return subscribe(params);
    if (method === 'userDataStream.unsubscribe') {
      const ids =
        params.subscriptionId === undefined ? [...subscriptions.keys()] : [Number(params.subscriptionId)];
      for (const subscriptionId of ids) {
        subscriptions.get(subscriptionId)?.();
        subscriptions.delete(subscriptionId);
      }
      return {};
    }
    if (method === 'ping') return {};
    throw new BinanceError(-1100, `Unsupported method '${method}'.`);
  };
};

/**
 * The account of a signed WebSocket API request: Binance signs the parameters sorted by name as
 * `key=value&…` (without `signature`), with the same timestamp and recvWindow rules as REST.
 */
const signedAccount = (exchange: SandboxExchange, raw: Record<string, unknown>): number => {
  const apiKey = typeof raw.apiKey === 'string' ? raw.apiKey : '';
  if (!API_KEY.test(apiKey)) throw binanceErrors.apiKeyFormat();
  const key = exchange.accounts.key(apiKey);
  if (!key) throw binanceErrors.apiKeyRejected();
  const params = new URLSearchParams();
  for (const name of Object.keys(raw).sort()) params.set(name, String(raw[name]));
  const payload = [...params.entries()]
    .filter(([name]) => name !== 'signature')
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  checkSignature(key, params, payload, exchange.now());
  return key.accountId;
};
