import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { okx } from '@gridbot/venues';
import { type WebSocket, WebSocketServer } from 'ws';
import { accountUid } from '../accounts';
import type { OrderEvent } from '../matching-engine';
import type { SandboxExchange } from '../sandbox-exchange';
import { answerPings, SILENCEABLE_SERVER, type StreamSilence } from '../stream-silence';
import { accountSnapshot } from './okx-balance';
import { okxError } from './okx-error';
import { orderJson } from './okx-order-json';

const PRIVATE_PATH = okx.stream.path;

type Arg = { channel?: unknown; instType?: unknown; instId?: unknown; ccy?: unknown };
type Subscription = { channel: 'orders' | 'account'; arg: Record<string, string> };

/** WS login sign: Base64 HMAC-SHA256 of timestamp (seconds) + "GET" + "/users/self/verify". */
export const okxLoginSign = (secret: string, timestamp: string): string =>
  createHmac('sha256', secret).update(`${timestamp}GET/users/self/verify`).digest('base64');

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** An error event as OKX sends it (WebSocket › Overview): the table's code and words. */
const errorEvent = (code: string, connId: string, ...args: string[]) => {
  const { msg } = okxError(code, ...args);
  return { event: 'error', code, msg, connId };
};

/**
 * The private WebSocket of OKX's v5 dialect on the dialect's own server: `login` (apiKey,
 * passphrase, timestamp in seconds within 30 s, sign), then `subscribe` to `orders` (instType SPOT
 * or ANY, optionally one instId) and `account` (optionally one ccy). Every change of the account's
 * orders is pushed in the order list's shape plus the fill fields; `account` pushes the trading
 * balance on each change. Text `ping` is answered `pong`. A connection of a silenced account
 * (the dialect's fault, stream-silence.ts) says nothing and reads nothing.
 * docs/venues/okx.md#user-data-stream
 */
export type OkxStreamControl = {
  /** Open connections to `/ws/v5/private`. */
  connections(): number;
  /** Connections subscribed to the orders channel of this account. */
  ordersSubscribers(accountId: number): number;
  /** Cuts every open connection without a close frame, as a network failure would; how many. */
  drop(): number;
  /**
   * Tells every open connection it closes soon for a service upgrade (`event: "notice"`, code
   * 64008) and closes it `closeAfterMs` later (OKX: 60 s); how many.
   */
  upgradeNotice(closeAfterMs?: number): number;
  close(): void;
};

export const attachOkxPrivateSocket = (
  server: Server,
  exchange: SandboxExchange,
  silence: StreamSilence,
): OkxStreamControl => {
  const wss = new WebSocketServer(SILENCEABLE_SERVER);
  /** Per account, the connections subscribed to its orders channel (for `channel-conn-count`). */
  const ordersConnections = new Map<number, Set<string>>();
  const connIds = new Map<WebSocket, string>();

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0] ?? '';
    if (path !== PRIVATE_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const ip = (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    wss.handleUpgrade(request, socket, head, (ws) => {
      connIds.set(ws, serve(ws, exchange, ip, ordersConnections, silence));
      ws.on('close', () => connIds.delete(ws));
    });
  };
  server.on('upgrade', onUpgrade);
  return {
    connections: () => wss.clients.size,
    ordersSubscribers: (accountId) => ordersConnections.get(accountId)?.size ?? 0,
    upgradeNotice: (closeAfterMs = 60_000) => {
      for (const [ws, connId] of connIds) {
        // The notice's words are ours: OKX's page gives the code, not a fixed message (unverified).
        const msg = 'The connection will soon be closed for a service upgrade. Please reconnect.';
        ws.send(JSON.stringify({ event: 'notice', code: okx.stream.upgradeNoticeCode, msg, connId }));
        setTimeout(() => ws.terminate(), closeAfterMs).unref();
      }
      return connIds.size;
    },
    drop: () => {
      const count = wss.clients.size;
      for (const client of wss.clients) client.terminate();
      return count;
    },
    close: () => {
      server.off('upgrade', onUpgrade);
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
};

const serve = (
  ws: WebSocket,
  exchange: SandboxExchange,
  ip: string,
  ordersConnections: Map<number, Set<string>>,
  silence: StreamSilence,
): string => {
  const connId = randomBytes(4).toString('hex');
  let accountId: number | undefined;
  const subscriptions: Subscription[] = [];
  const silent = () => silence.covers([accountId]);
  const send = (message: unknown) => {
    if (ws.readyState === ws.OPEN && !silent()) ws.send(JSON.stringify(message));
  };
  answerPings(ws, silent);

  const login = (args: unknown) => {
    const first = (Array.isArray(args) ? args[0] : undefined) as Record<string, unknown> | undefined;
    const apiKey = typeof first?.apiKey === 'string' ? first.apiKey : '';
    const passphrase = typeof first?.passphrase === 'string' ? first.passphrase : '';
    const timestamp = typeof first?.timestamp === 'string' ? first.timestamp : String(first?.timestamp ?? '');
    const sign = typeof first?.sign === 'string' ? first.sign : '';
    if (!apiKey || !passphrase || !timestamp || !sign) return send(errorEvent('60013', connId));
    const key = exchange.accounts.key(apiKey);
    if (!key) return send(errorEvent('60005', connId));
    const seconds = Number(timestamp);
    if (!/^\d+(\.\d+)?$/.test(timestamp) || !Number.isFinite(seconds))
      return send(errorEvent('60004', connId));
    // WebSocket › Login: the timestamp expires 30 seconds after it (either way here, as REST).
    if (Math.abs(exchange.now() / 1000 - seconds) > okx.clock.defaultRecvWindowMs / 1000)
      return send(errorEvent('60006', connId));
    if (!key.passphrase || !same(passphrase, key.passphrase)) return send(errorEvent('60024', connId));
    // A wrong sign, or a caller off the key's IP list: "Login failure" (docs/venues/okx.md#user-data-stream).
    if (!same(sign, okxLoginSign(key.secret, timestamp))) return send(errorEvent('60009', connId));
    if (key.ipWhitelist.length > 0 && !key.ipWhitelist.includes(ip)) return send(errorEvent('60009', connId));
    accountId = key.accountId;
    send({ event: 'login', code: '0', msg: '', connId });
  };

  const subscribe = (op: 'subscribe' | 'unsubscribe', args: unknown) => {
    if (!Array.isArray(args) || args.length === 0) return send(errorEvent('60013', connId));
    for (const raw of args as Arg[]) {
      const channel = typeof raw?.channel === 'string' ? raw.channel : '';
      if (channel !== 'orders' && channel !== 'account')
        return send(errorEvent('60018', connId, `channel:${channel}`));
      if (accountId === undefined) return send(errorEvent('60011', connId));
      const arg: Record<string, string> = { channel };
      if (channel === 'orders') {
        const instType = typeof raw.instType === 'string' ? raw.instType : '';
        if (!['SPOT', 'ANY', 'MARGIN', 'SWAP', 'FUTURES', 'OPTION'].includes(instType))
          return send(errorEvent('60013', connId));
        arg.instType = instType;
        if (typeof raw.instId === 'string' && raw.instId !== '') arg.instId = raw.instId;
      } else if (typeof raw.ccy === 'string' && raw.ccy !== '') {
        arg.ccy = raw.ccy;
      }
      const at = subscriptions.findIndex((s) => JSON.stringify(s.arg) === JSON.stringify(arg));
      if (op === 'subscribe' && at === -1) subscriptions.push({ channel, arg });
      if (op === 'unsubscribe' && at !== -1) subscriptions.splice(at, 1);
      send({ event: op, arg, connId });
      if (channel === 'orders') countOrdersConnection(op);
      // Account channel: the balance is pushed once on subscribing, then on every change.
      if (op === 'subscribe' && channel === 'account') pushAccount(arg);
    }
  };

  /**
   * WebSocket › Connection count limit: after each orders subscription, the number of the account's
   * connections on that channel (`channel-conn-count`). The limit of 30 is not enforced.
   */
  const countOrdersConnection = (op: 'subscribe' | 'unsubscribe') => {
    if (accountId === undefined) return;
    const stillSubscribed = subscriptions.some((s) => s.channel === 'orders');
    const connections = ordersConnections.get(accountId) ?? new Set<string>();
    ordersConnections.set(accountId, connections);
    if (stillSubscribed) connections.add(connId);
    else connections.delete(connId);
    if (op === 'subscribe')
      send({ event: 'channel-conn-count', channel: 'orders', connCount: String(connections.size), connId });
  };

  const pushAccount = (arg: Record<string, string>) => {
    if (accountId === undefined) return;
    const data = accountSnapshot(exchange, accountId, arg.ccy ? [arg.ccy.toUpperCase()] : undefined);
    send({ arg: { ...arg, uid: String(accountUid(accountId)) }, data });
  };

  const onEvent = (event: OrderEvent) => {
    if (accountId === undefined || event.order.accountId !== accountId) return;
    const market = exchange.market(event.order.symbol).market;
    const instId = `${market.base}-${market.quote}`;
    for (const { channel, arg } of subscriptions) {
      if (channel === 'account') {
        pushAccount(arg);
        continue;
      }
      if (!['SPOT', 'ANY'].includes(arg.instType ?? '') || (arg.instId && arg.instId !== instId)) continue;
      const order = orderJson(event.order, market, exchange.engine.trades(accountId));
      const trade = event.kind === 'TRADE' ? event.trade : undefined;
      // Order channel: the fill fields describe this push's fill only (empty on other changes).
      const data = {
        ...order,
        amendResult: '',
        code: '0',
        execType: trade ? (trade.isMaker ? 'M' : 'T') : '',
        fillFee: trade ? (trade.commission.isZero() ? '0' : trade.commission.neg().toFixed()) : '0',
        fillFeeCcy: trade?.commissionAsset ?? '',
        fillNotionalUsd: '',
        fillPx: trade ? trade.price.toFixed() : '',
        fillSz: trade ? trade.qty.toFixed() : '0',
        fillTime: trade ? String(trade.time) : '',
        tradeId: trade ? String(trade.id) : '',
        lastPx: exchange.market(event.order.symbol).price.toFixed(),
        msg: '',
        notionalUsd: '',
        reqId: '',
      };
      send({ arg: { ...arg, uid: String(accountUid(accountId)) }, data: [data] });
    }
  };
  const unsubscribeEngine = exchange.engine.onOrderEvent(onEvent);

  ws.on('message', (raw) => {
    if (silent()) return;
    const text = raw.toString();
    if (text === 'ping') return ws.send('pong');
    let message: { op?: unknown; args?: unknown };
    try {
      message = JSON.parse(text);
    } catch {
      return send(errorEvent('60012', connId));
    }
    if (message?.op === 'login') return login(message.args);
    if (message?.op === 'subscribe' || message?.op === 'unsubscribe')
      return subscribe(message.op, message.args);
    send(errorEvent('60012', connId));
  });
  ws.on('close', () => {
    unsubscribeEngine();
    if (accountId !== undefined) ordersConnections.get(accountId)?.delete(connId);
  });
  return connId;
};
