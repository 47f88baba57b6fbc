import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { bybit } from '@gridbot/venues';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type { OrderEvent } from '../matching-engine';
import type { SandboxExchange } from '../sandbox-exchange';
import { answerPings, SILENCEABLE_SERVER, type StreamSilence } from '../stream-silence';
import { walletAccount } from './bybit-account-routes';
import { executionJson, orderJson } from './bybit-order-json';

const { stream } = bybit;

/** One connection to `/v5/private`: whose account it follows once authenticated, and its topics. */
type Connection = {
  ws: WebSocket;
  connId: string;
  accountId?: number;
  topics: Set<string>;
  /** How long it may stay without ping-pong or pushed data (ws/connect.mdx, max_active_time). */
  activeMs: number;
  idle?: NodeJS.Timeout;
};

type Request = { op?: unknown; args?: unknown; req_id?: unknown };

/**
 * `max_active_time` of the URL: 30s…600s, or 1m…10m (ws/connect.mdx "Customise Private Connection
 * Alive Time"); undefined when absent, null when out of range or unreadable.
 */
export const maxActiveTime = (value: string | null): number | null | undefined => {
  if (value === null) return undefined;
  const match = /^(\d+)(s|m)$/.exec(value);
  if (!match) return null;
  const ms = Number(match[1]) * (match[2] === 'm' ? 60_000 : 1000);
  return ms >= stream.minActiveMs && ms <= stream.maxActiveMs ? ms : null;
};

/** Bybit's connection id: 20 lower-case letters and digits, a dash and a counter (ccxt's recorded `conn_id`s). */
const connectionId = (n: number): string => `${randomBytes(10).toString('hex')}-${n.toString(36)}`;

export type BybitStreamControl = {
  /** Open connections to `/v5/private`. */
  connections(): number;
  /** Authenticated connections subscribed to `topic`. */
  subscribers(topic: string): number;
  /** The idle cut when the URL sets no `max_active_time` (default Bybit's 10 minutes). */
  setIdleMs(ms?: number): void;
  /** Cuts every open connection without a close frame, as a network failure would; how many. */
  drop(): number;
  close(): void;
};

/**
 * Bybit's private stream on the Bybit dialect's server: `{"op":"auth"}` with HMAC-SHA256(secret,
 * "GET/realtime" + expires), then `subscribe` / `unsubscribe` to `order`, `execution`, `wallet`
 * (and the `.spot` topics); every change of the account's orders (the matching engine's
 * `onOrderEvent`) pushed in Bybit's v5 shapes; `ping` answered with `pong`; an idle connection
 * dropped as ws/connect.mdx says. A connection of a silenced account (`silence`, the dialect's
 * fault) says nothing, reads nothing and is not cut for idling. docs/venues/bybit.md#user-data-stream
 */
export const attachBybitPrivateStream = (
  server: Server,
  exchange: SandboxExchange,
  silence: StreamSilence,
): BybitStreamControl => {
  const wss = new WebSocketServer(SILENCEABLE_SERVER);
  const open = new Set<Connection>();
  let idleMs: number = stream.idleMs;
  let counter = 0;

  const silent = (c: Connection) => silence.covers([c.accountId]);

  const send = (c: Connection, message: object) => {
    if (c.ws.readyState === c.ws.OPEN && !silent(c)) c.ws.send(JSON.stringify(message));
  };

  /**
   * "No ping-pong and no stream data" for the connection's active time: Bybit cuts it (a silent
   * connection is left for its client to give up on).
   */
  const touch = (c: Connection) => {
    if (c.idle) clearTimeout(c.idle);
    c.idle = setTimeout(() => (silent(c) ? touch(c) : c.ws.terminate()), c.activeMs);
    c.idle.unref();
  };

  const answer = (c: Connection, request: Request, op: string, failure?: string) => {
    const reqId = typeof request.req_id === 'string' ? { req_id: request.req_id } : {};
    send(c, { ...reqId, success: failure === undefined, ret_msg: failure ?? '', op, conn_id: c.connId });
  };

  const authenticate = (c: Connection, request: Request) => {
    if (c.accountId !== undefined) return answer(c, request, 'auth', stream.words.repeatAuth);
    const args = Array.isArray(request.args) ? request.args : [];
    const [apiKey, expiresRaw, signature] = args;
    const expires = typeof expiresRaw === 'number' ? expiresRaw : Number(expiresRaw);
    if (
      args.length !== 3 ||
      typeof apiKey !== 'string' ||
      typeof signature !== 'string' ||
      !Number.isSafeInteger(expires)
    )
      return answer(c, request, 'auth', stream.words.authParams);
    // ws/connect.mdx: `expires` must be later than the server's time.
    if (expires <= exchange.now()) return answer(c, request, 'auth', stream.words.authParams);
    const key = exchange.accounts.key(apiKey);
    if (!key) return answer(c, request, 'auth', stream.words.authDenied);
    const expected = createHmac('sha256', key.secret)
      .update(`GET/realtime${String(expiresRaw)}`)
      .digest();
    const given = Buffer.from(signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      return answer(c, request, 'auth', stream.words.authDenied);
    c.accountId = key.accountId;
    answer(c, request, 'auth');
  };

  const subscribe = (c: Connection, request: Request, op: 'subscribe' | 'unsubscribe') => {
    if (c.accountId === undefined) return answer(c, request, op, stream.words.notAuthorized);
    const topics = Array.isArray(request.args) ? request.args : [];
    const bad = topics.find((t) => typeof t !== 'string' || !stream.topics.includes(t));
    if (topics.length === 0 || bad !== undefined)
      return answer(c, request, op, stream.words.badTopic.replace('%s', String(bad ?? '')));
    for (const topic of topics as string[]) {
      if (op === 'subscribe') c.topics.add(topic);
      else c.topics.delete(topic);
    }
    answer(c, request, op);
  };

  const onMessage = (c: Connection, data: RawData) => {
    if (silent(c)) return;
    touch(c);
    let request: Request;
    try {
      request = JSON.parse(data.toString()) as Request;
    } catch {
      return answer(c, {}, '', stream.words.invalidOp);
    }
    if (typeof request !== 'object' || request === null) return answer(c, {}, '', stream.words.invalidOp);
    switch (request.op) {
      case 'ping': {
        // ws/connect.mdx, private stream: the pong carries the server's time in `args`.
        const reqId = typeof request.req_id === 'string' ? { req_id: request.req_id } : {};
        return send(c, { ...reqId, op: 'pong', args: [String(exchange.now())], conn_id: c.connId });
      }
      case 'auth':
        return authenticate(c, request);
      case 'subscribe':
      case 'unsubscribe':
        return subscribe(c, request, request.op);
      default:
        return answer(c, request, typeof request.op === 'string' ? request.op : '', stream.words.invalidOp);
    }
  };

  /** Pushes one topic's data to every connection of the account subscribed to it (or its spot twin). */
  const push = (accountId: number, topics: string[], data: object[]) => {
    for (const c of open) {
      if (c.accountId !== accountId) continue;
      for (const topic of topics) {
        if (!c.topics.has(topic)) continue;
        touch(c);
        send(c, { id: randomUUID(), topic, creationTime: exchange.now(), data });
      }
    }
  };

  const onOrderEvent = (event: OrderEvent) => {
    const { order } = event;
    const { accountId, symbol } = order;
    if (![...open].some((c) => c.accountId === accountId)) return;
    const trades = exchange.engine.trades(accountId, symbol);
    push(accountId, ['order', 'order.spot'], [{ category: 'spot', ...orderJson(order, trades) }]);
    if (event.kind === 'TRADE') {
      const fill = executionJson(event.trade, order, exchange.engine.feeRate);
      push(accountId, ['execution', 'execution.spot'], [{ category: 'spot', ...fill }]);
    }
    // wallet.mdx: the coins the change moved (the market's base and quote).
    const market = exchange.listMarkets().find((m) => m.market.symbol === symbol)?.market;
    const wallet = walletAccount(exchange, accountId, market ? [market.base, market.quote] : undefined);
    push(accountId, ['wallet'], [wallet]);
  };
  const unsubscribeEngine = exchange.engine.onOrderEvent(onOrderEvent);

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://sandbox');
    if (url.pathname !== stream.path) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const active = maxActiveTime(url.searchParams.get('max_active_time'));
    if (active === null) {
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      const c: Connection = {
        ws,
        connId: connectionId(++counter),
        topics: new Set(),
        activeMs: active ?? idleMs,
      };
      open.add(c);
      touch(c);
      answerPings(ws, () => silent(c));
      ws.on('message', (data) => onMessage(c, data));
      ws.on('close', () => {
        if (c.idle) clearTimeout(c.idle);
        open.delete(c);
      });
      ws.on('error', () => ws.terminate());
    });
  };
  server.on('upgrade', onUpgrade);

  return {
    connections: () => open.size,
    subscribers: (topic) => [...open].filter((c) => c.topics.has(topic)).length,
    setIdleMs: (ms) => {
      idleMs = ms ?? stream.idleMs;
    },
    drop: () => {
      const count = open.size;
      for (const c of open) c.ws.terminate();
      return count;
    },
    close: () => {
      server.off('upgrade', onUpgrade);
      unsubscribeEngine();
      for (const c of open) {
        if (c.idle) clearTimeout(c.idle);
        c.ws.terminate();
      }
      open.clear();
      wss.close();
    },
  };
};
