import { binance } from '@gridbot/venues';
import type { ConnectionLimiter } from './connection-limiter';
import {
  openWsApiConnection,
  type WsApiConnection,
  type WsApiConnectionOptions,
  WsApiError,
} from './ws-api-connection';

/** One account to follow: its identity on the venue and how to sign its subscription. */
export type UserDataAccount = {
  /** The account's API key (Binance allows one subscription per account on a connection). */
  id: string;
  /** Fresh signed parameters of `userDataStream.subscribe.signature` (apiKey, timestamp, signature). */
  sign: () => Promise<Record<string, string | number>>;
};

export type UserDataHandlers = {
  /** One user data event of the account (`executionReport`, `outboundAccountPosition`, …). */
  onEvent: (event: Record<string, unknown>) => void;
  /**
   * The account's subscription is live: the first time `resumed: false`; after its connection was
   * lost `resumed: true` (events sent meanwhile are lost: the caller looks at everything again). A
   * connection replaced make-before-break (serverShutdown, end of life) loses nothing and says nothing.
   */
  onSubscribed?: (info: { resumed: boolean }) => void;
  /** The account's subscription failed (it is tried again after a backoff). */
  onError?: (error: unknown) => void;
};

export type UserDataStreamsLog = {
  event: 'connected' | 'connect-failed' | 'retiring' | 'closed';
  connection?: number;
  reason?: string;
  subscriptions?: number;
  retryInMs?: number;
};

export type UserDataStreamsOptions = {
  /** The venue's WebSocket API (Binance: wss://ws-api.binance.com:443/ws-api/v3). */
  url: string;
  /** Paces connection attempts: per IP on the venue, so shared by the installation's processes. */
  limiter: ConnectionLimiter;
  /** Subscriptions one connection carries before another is opened (default 200; the venue allows 1,000). */
  maxSubscriptionsPerConnection?: number;
  /** How long the venue keeps a connection (default Binance's 24 h). */
  connectionLifeMs?: number;
  /** A connection is replaced this long (± half, at random) before its life ends (default 30 min). */
  renewBeforeMs?: number;
  /** Backoff after a failed connection or subscription: full jitter from min doubling to max (default 1 s, 60 s). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Subscription requests in flight at once (default 8). */
  subscribeConcurrency?: number;
  /** A connection left with no subscriptions closes after this long (default 30 s). */
  idleCloseMs?: number;
  connection?: WsApiConnectionOptions;
  log?: (entry: UserDataStreamsLog) => void;
};

export type UserDataStreams = {
  /** Follows the account's user data on a shared connection until the returned function is called. */
  follow: (account: UserDataAccount, handlers: UserDataHandlers) => () => Promise<void>;
  /** The open connections and how many subscriptions each carries (tests, the operator). */
  connections: () => { id: number; subscriptions: number; retiring: boolean }[];
  close: () => Promise<void>;
};

type Conn = {
  id: number;
  socket?: WsApiConnection;
  subs: Map<number, Follower>;
  /** Subscriptions started on it (the venue caps them over a connection's life). */
  started: number;
  /** Subscription requests in flight. */
  reserved: number;
  retiring: boolean;
  full: boolean;
  openedAt: number;
  timers: NodeJS.Timeout[];
};

type Follower = {
  account: UserDataAccount;
  handlers: UserDataHandlers;
  current?: { conn: Conn; subscriptionId: number };
  busy: boolean;
  subscribedOnce: boolean;
  retryAt: number;
  failures: number;
  stopped: boolean;
  /**
   * A connection where this account's subscription is in doubt: a request left unanswered may have
   * been carried out (its events would then flow under an id we never learnt, and another request
   * there is refused -2035), so the account subscribes on another connection.
   */
  shun?: Conn;
};

/** Binance's answers when a connection cannot take another subscription (errors.md -1191, -2042). */
const CONNECTION_FULL = new Set([-1191, -2042]);
/**
 * "User Data Stream subscription already active" (errors.md -2035): one subscription per account
 * per connection (web-socket-api.md, User Data Stream subscription), and this connection has the
 * account's already — one whose answer we never got.
 */
const SUBSCRIPTION_ACTIVE = -2035;

/**
 * Binance's user data stream for many accounts over few WebSocket API connections
 * (docs/grid.md#triggers, docs/venues/binance.md#user-data-stream): each account is one
 * `userDataStream.subscribe.signature` subscription, its events routed by `subscriptionId`. A
 * connection is filled up to `maxSubscriptionsPerConnection` before another is opened; every
 * connection attempt goes through the `limiter` (300 per IP per 5 minutes) and failures back off
 * with full jitter, so many workers reconnecting at once spread out. A connection about to end
 * (`serverShutdown`, its 24 h life) is replaced make-before-break: its accounts subscribe on
 * another connection first, the old one closes once it carries none. A connection that dropped
 * has its accounts subscribed again elsewhere, reported `resumed`.
 */
export const createUserDataStreams = (options: UserDataStreamsOptions): UserDataStreams => {
  const limits = binance.userStream;
  const maxPerConnection = Math.min(
    options.maxSubscriptionsPerConnection ?? 200,
    limits.subscriptionsPerConnection,
  );
  const lifeMs = options.connectionLifeMs ?? limits.connectionLifeMs;
  const renewBeforeMs = Math.min(options.renewBeforeMs ?? 30 * 60_000, lifeMs / 2);
  const minBackoff = options.minBackoffMs ?? 1000;
  const maxBackoff = options.maxBackoffMs ?? 60_000;
  const concurrency = options.subscribeConcurrency ?? 8;
  const idleCloseMs = options.idleCloseMs ?? 30_000;
  const log = options.log ?? (() => undefined);

  const followers = new Set<Follower>();
  const conns = new Set<Conn>();
  let nextConnId = 1;
  let connFailures = 0;
  let pausedUntil = 0;
  let pumping = false;
  let again = false;
  let closed = false;
  let wake: NodeJS.Timeout | undefined;
  let wakeAt = Number.POSITIVE_INFINITY;

  const backoff = (failures: number) =>
    Math.round(Math.min(maxBackoff, minBackoff * 2 ** Math.max(0, failures - 1)) * (0.5 + Math.random() / 2));

  const schedule = (at: number) => {
    if (closed || at >= wakeAt) return;
    if (wake) clearTimeout(wake);
    wakeAt = at;
    wake = setTimeout(
      () => {
        wake = undefined;
        wakeAt = Number.POSITIVE_INFINITY;
        void pump();
      },
      Math.max(0, at - Date.now()),
    );
    wake.unref();
  };

  const needsSubscription = (f: Follower) =>
    !f.stopped && !f.busy && (f.current === undefined || f.current.conn.retiring);

  const hasRoom = (conn: Conn, f: Follower) =>
    conn.socket?.open === true &&
    !conn.retiring &&
    !conn.full &&
    conn.subs.size + conn.reserved < maxPerConnection &&
    conn.started + conn.reserved < limits.subscriptionsPerConnectionLifetime &&
    conn !== f.shun &&
    ![...conn.subs.values()].some((other) => other.account.id === f.account.id);

  // Oldest first: fill a connection before the next one is opened.
  const pick = (f: Follower) => [...conns].find((conn) => hasRoom(conn, f));

  const closeConn = (conn: Conn, reason: string) => {
    for (const timer of conn.timers) clearTimeout(timer);
    conn.retiring = true;
    conn.socket?.close();
    log({ event: 'closed', connection: conn.id, reason, subscriptions: conn.subs.size });
  };

  const closeIfIdle = (conn: Conn) => {
    if (conn.subs.size > 0 || conn.reserved > 0) return;
    if (conn.retiring) return closeConn(conn, 'replaced');
    const timer = setTimeout(() => {
      if (conn.subs.size === 0 && conn.reserved === 0 && conns.has(conn)) closeConn(conn, 'idle');
    }, idleCloseMs);
    timer.unref();
    conn.timers.push(timer);
  };

  const retire = (conn: Conn, reason: string) => {
    if (conn.retiring || !conns.has(conn)) return;
    conn.retiring = true;
    log({ event: 'retiring', connection: conn.id, reason, subscriptions: conn.subs.size });
    if (conn.subs.size === 0 && conn.reserved === 0) closeConn(conn, reason);
    void pump();
  };

  const onConnClosed = (conn: Conn, reason: string) => {
    conns.delete(conn);
    for (const timer of conn.timers) clearTimeout(timer);
    const lost = [...conn.subs.values()].filter((f) => f.current?.conn === conn);
    conn.subs.clear();
    for (const f of lost) f.current = undefined;
    if (closed || lost.length === 0) return;
    log({ event: 'closed', connection: conn.id, reason, subscriptions: lost.length });
    // A connection that ends soon after it opened is a failure to back off from (a flapping venue);
    // otherwise its accounts go to another connection at once, after a little jitter so the
    // workers that lost theirs at the same moment do not all reconnect in the same instant.
    if (Date.now() - conn.openedAt < 60_000) connFailures++;
    pausedUntil = Math.max(
      pausedUntil,
      Date.now() + (connFailures > 0 ? backoff(connFailures) : Math.random() * minBackoff),
    );
    schedule(pausedUntil);
  };

  const openConn = async (): Promise<Conn | undefined> => {
    if (Date.now() < pausedUntil) {
      schedule(pausedUntil);
      return undefined;
    }
    await options.limiter.acquire();
    if (closed) return undefined;
    const conn: Conn = {
      id: nextConnId++,
      subs: new Map(),
      started: 0,
      reserved: 0,
      retiring: false,
      full: false,
      openedAt: Date.now(),
      timers: [],
    };
    try {
      conn.socket = await openWsApiConnection(
        options.url,
        {
          onEvent: (subscriptionId, event) => {
            if (subscriptionId === undefined) return;
            conn.subs.get(subscriptionId)?.handlers.onEvent(event);
          },
          onShutdown: () => retire(conn, 'serverShutdown'),
          onClose: (reason) => onConnClosed(conn, reason),
        },
        options.connection,
      );
    } catch (error) {
      connFailures++;
      const retryInMs = Math.max(
        backoff(connFailures),
        error instanceof WsApiError ? (error.retryAfterMs ?? 0) : 0,
      );
      pausedUntil = Date.now() + retryInMs;
      log({ event: 'connect-failed', reason: (error as Error).message, retryInMs });
      schedule(pausedUntil);
      return undefined;
    }
    conn.openedAt = Date.now();
    conns.add(conn);
    const renewAt = lifeMs - renewBeforeMs * (0.5 + Math.random() / 2);
    const timer = setTimeout(() => retire(conn, 'end of life'), renewAt);
    timer.unref();
    conn.timers.push(timer);
    log({ event: 'connected', connection: conn.id });
    return conn;
  };

  const unsubscribe = (conn: Conn, subscriptionId: number) => {
    conn.subs.delete(subscriptionId);
    if (conn.socket?.open && !conn.retiring) {
      conn.socket.request('userDataStream.unsubscribe', { subscriptionId }).catch(() => undefined);
    }
    closeIfIdle(conn);
  };

  const subscribe = async (f: Follower, conn: Conn) => {
    f.busy = true;
    conn.reserved++;
    let moved = false;
    try {
      const params = await f.account.sign();
      if (f.stopped || !conn.socket?.open) return;
      conn.started++;
      await conn.socket.request('userDataStream.subscribe.signature', params, (result) => {
        const subscriptionId = Number((result as { subscriptionId?: unknown }).subscriptionId);
        const previous = f.current;
        conn.subs.set(subscriptionId, f);
        f.current = { conn, subscriptionId };
        if (previous) {
          // Make-before-break: the new subscription is live, the old one can go.
          moved = true;
          previous.conn.subs.delete(previous.subscriptionId);
          if (previous.conn.retiring) closeIfIdle(previous.conn);
          else unsubscribe(previous.conn, previous.subscriptionId);
        }
      });
      connFailures = 0;
      f.failures = 0;
      if (f.stopped) {
        if (f.current?.conn === conn) unsubscribe(conn, f.current.subscriptionId);
        return;
      }
      if (!moved) f.handlers.onSubscribed?.({ resumed: f.subscribedOnce });
      f.subscribedOnce = true;
    } catch (error) {
      if (f.stopped) return;
      if (error instanceof WsApiError && error.code !== undefined && CONNECTION_FULL.has(error.code)) {
        conn.full = true;
        return;
      }
      if (!conn.socket?.open) return;
      const code = error instanceof WsApiError ? error.code : undefined;
      const unanswered = error instanceof WsApiError && error.status === 0;
      if (unanswered || code === SUBSCRIPTION_ACTIVE) {
        // The account may be subscribed here under an id we never learnt: subscribe it elsewhere
        // (a retry here would be refused -2035 for as long as the connection lives). The
        // connection is closed once idle, which ends that orphan subscription with it.
        f.shun = conn;
        if (code === SUBSCRIPTION_ACTIVE) {
          f.retryAt = 0;
          void pump();
          return;
        }
      }
      f.failures++;
      const wait = Math.max(backoff(f.failures), error instanceof WsApiError ? (error.retryAfterMs ?? 0) : 0);
      f.retryAt = Date.now() + wait;
      // Woken for the retry: nothing else may wake the pump (an unanswered subscription on a
      // connection that stays open was never tried again before, venue-conformance.int.test.ts).
      schedule(f.retryAt);
      f.handlers.onError?.(error);
    } finally {
      f.busy = false;
      conn.reserved--;
      if (f.shun === conn) closeIfIdle(conn);
      if (conn.retiring) {
        // Retired while this request was in flight: its account moves on like the others.
        closeIfIdle(conn);
        void pump();
      }
    }
  };

  const pumpOnce = async () => {
    const now = Date.now();
    const due = [...followers].filter(needsSubscription);
    const waiting = due.filter((f) => f.retryAt <= now);
    for (const f of due) if (f.retryAt > now) schedule(f.retryAt);
    while (waiting.length > 0 && !closed) {
      const batch: Promise<void>[] = [];
      while (waiting.length > 0 && batch.length < concurrency) {
        const f = waiting[0]!;
        if (!needsSubscription(f)) {
          waiting.shift();
          continue;
        }
        let conn = pick(f);
        if (!conn) {
          if (batch.length > 0) break;
          conn = await openConn();
          if (!conn) return;
          continue;
        }
        waiting.shift();
        batch.push(subscribe(f, conn));
      }
      await Promise.all(batch);
    }
  };

  const pump = async (): Promise<void> => {
    if (closed) return;
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        await pumpOnce();
        // Subscriptions that ended on a full connection, or accounts that came meanwhile.
        if (
          [...followers].some((f) => needsSubscription(f) && f.retryAt <= Date.now()) &&
          Date.now() >= pausedUntil
        )
          again = true;
      } while (again && !closed);
    } finally {
      pumping = false;
    }
  };

  return {
    follow: (account, handlers) => {
      const f: Follower = {
        account,
        handlers,
        busy: false,
        subscribedOnce: false,
        retryAt: 0,
        failures: 0,
        stopped: false,
      };
      followers.add(f);
      void pump();
      return async () => {
        if (f.stopped) return;
        f.stopped = true;
        followers.delete(f);
        const current = f.current;
        f.current = undefined;
        if (current && current.conn.subs.get(current.subscriptionId) === f)
          unsubscribe(current.conn, current.subscriptionId);
      };
    },
    connections: () =>
      [...conns].map((conn) => ({ id: conn.id, subscriptions: conn.subs.size, retiring: conn.retiring })),
    close: async () => {
      closed = true;
      if (wake) clearTimeout(wake);
      for (const f of followers) f.stopped = true;
      followers.clear();
      for (const conn of [...conns]) closeConn(conn, 'stopped');
      conns.clear();
    },
  };
};
