import WebSocket from 'ws';
import type { OrderStreamOptions } from '../order-stream';
import type { ConnectionLimiter } from '../user-data/connection-limiter';

/** What one frame of a venue's private stream means to the follower. */
export type PrivateStreamFrame =
  /** The login was accepted: the subscription is sent next. */
  | { kind: 'logged-in' }
  /** The order subscription is live. */
  | { kind: 'subscribed' }
  /** Raw orders pushed by the venue, in its own shape. */
  | { kind: 'orders'; orders: unknown[] }
  /** The login or the subscription was refused: the connection is closed and tried again later. */
  | { kind: 'refused'; error: Error }
  /** The venue will close the connection soon (an upgrade): reconnect now. */
  | { kind: 'closing' }
  /** A pong, a notice or anything else of no consequence (it still proves the connection alive). */
  | { kind: 'other' };

/**
 * One venue's private order stream, as data and small functions: where to connect, what to send
 * and what its answers mean. One connection follows one account (Bybit's `auth` and OKX's `login`
 * name one key: docs/venues/bybit.md#user-data-stream, docs/venues/okx.md#user-data-stream).
 */
export type PrivateStreamDialect = {
  url: string;
  /** The login frame, signed at the moment it is sent (its timestamp expires). */
  login: () => Promise<string>;
  subscribe: string;
  /** The venue's heartbeat frame and how often it is sent. */
  ping: string;
  pingEveryMs: number;
  read: (text: string) => PrivateStreamFrame;
};

export type PrivateStreamTiming = {
  /** How often the heartbeat is sent (default the venue's, `PrivateStreamDialect.pingEveryMs`). */
  pingEveryMs?: number;
  /**
   * A connection silent this long (no frame at all, pongs included) is dead: it is cut and another
   * opened (default: 2 pings + 5 s). A venue that keeps the TCP connection open and stops sending
   * is noticed only so (the sandbox's silent-stream fault, venue-conformance.int.test.ts).
   */
  silenceMs?: number;
  /** How long the handshake, the login and the subscription may take together (default 10 s). */
  setupTimeoutMs?: number;
  /** Backoff after a failure: full jitter from min doubling to max (default 1 s, 60 s). */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** The local address the connection leaves from (EGRESS_BIND_ADDRESS). */
  localAddress?: string;
};

/** A connection that lived this long before it ended was healthy: its end is not a failure to back off from. */
const HEALTHY_MS = 60_000;

/**
 * Follows one account's private order stream until the returned function is called: connect (each
 * attempt through the venue's connection `limiter`), log in, subscribe, heartbeat; `onSubscribed`
 * on each subscription (`resumed` after the first: what was pushed meanwhile is lost); every raw
 * order to `deliver`. Any failure — refused, silent, dropped, unreachable — closes the connection
 * and opens another after a backoff with full jitter; a healthy connection that ends is replaced
 * at once, after a little jitter. A venue announcing an upgrade (OKX's 64008 notice, a minute
 * before it closes the connection) is answered make-before-break: the successor is opened at once
 * and the old connection, still delivering meanwhile, is closed when the successor has subscribed
 * (an order pushed on both is reported once: `orderDelivery`).
 */
export const followPrivateStream = (
  dialect: PrivateStreamDialect,
  limiter: ConnectionLimiter,
  deliver: (raw: unknown) => void,
  options: Pick<OrderStreamOptions, 'onError' | 'onSubscribed'>,
  timing: PrivateStreamTiming = {},
): (() => Promise<void>) => {
  const pingEveryMs = timing.pingEveryMs ?? dialect.pingEveryMs;
  const silenceMs = timing.silenceMs ?? pingEveryMs * 2 + 5000;
  const setupTimeoutMs = timing.setupTimeoutMs ?? 10_000;
  const minBackoff = timing.minBackoffMs ?? 1000;
  const maxBackoff = timing.maxBackoffMs ?? 60_000;
  let stopped = false;
  let failures = 0;
  let subscribedOnce = false;
  /** Every open connection: the current one and, during an upgrade, the one it replaces. */
  const sockets = new Map<WebSocket, Promise<void>>();
  let retry: NodeJS.Timeout | undefined;

  const backoff = () =>
    Math.round(Math.min(maxBackoff, minBackoff * 2 ** Math.max(0, failures - 1)) * (0.5 + Math.random() / 2));

  const again = (wait: number) => {
    if (stopped) return;
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, wait);
    retry.unref();
  };

  const failed = (error: unknown) => {
    failures++;
    // A throwing onError must not end the stream: it is the only place it could be reported.
    try {
      if (!stopped) options.onError?.(error);
    } catch {}
    again(backoff());
  };

  const connect = async () => {
    try {
      await limiter.acquire();
      if (stopped) return;
      // Whatever the login needs (markets, the clock offset) is ready before the connection opens.
      await dialect.login();
    } catch (error) {
      return failed(error);
    }
    if (stopped) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket(dialect.url, {
        handshakeTimeout: setupTimeoutMs,
        ...(timing.localAddress ? { localAddress: timing.localAddress } : {}),
      });
    } catch (error) {
      return failed(error);
    }
    let openedAt = 0;
    let subscribed = false;
    let problem: unknown;
    /** Announced to close (an upgrade): its successor is opening, so its end opens nothing. */
    let retiring = false;
    const timers: NodeJS.Timeout[] = [];
    let silence: NodeJS.Timeout | undefined;
    const heard = () => {
      if (silence) clearTimeout(silence);
      silence = setTimeout(() => {
        problem ??= new Error(`private stream silent for ${silenceMs} ms`);
        ws.terminate();
      }, silenceMs);
      silence.unref();
    };
    const drop = (error: unknown) => {
      problem ??= error;
      ws.terminate();
    };
    let resolveClosed: () => void = () => undefined;
    sockets.set(
      ws,
      new Promise((resolve) => {
        resolveClosed = resolve;
      }),
    );

    ws.on('open', () => {
      openedAt = Date.now();
      heard();
      // Signed now, not before the handshake: the login's timestamp expires (Bybit 10 s, OKX 30 s).
      dialect.login().then((login) => ws.send(login), drop);
      timers.push(setInterval(() => ws.send(dialect.ping), pingEveryMs).unref());
    });
    timers.push(
      setTimeout(() => {
        if (!subscribed) drop(new Error(`private stream not subscribed within ${setupTimeoutMs} ms`));
      }, setupTimeoutMs).unref(),
    );
    ws.on('message', (data) => {
      // Frames still arriving while a stop closes the connection are not the caller's any more.
      if (stopped) return;
      heard();
      const frame = dialect.read(String(data));
      switch (frame.kind) {
        case 'logged-in':
          return ws.send(dialect.subscribe);
        case 'subscribed':
          if (subscribed) return;
          subscribed = true;
          // The connections this one replaces have delivered until now: they can go.
          for (const other of sockets.keys()) if (other !== ws) other.close(1000);
          // The caller's failure is reported, never taken for a broken stream.
          try {
            options.onSubscribed?.({ resumed: subscribedOnce });
          } catch (error) {
            options.onError?.(error);
          }
          subscribedOnce = true;
          return;
        case 'orders':
          for (const raw of frame.orders) deliver(raw);
          return;
        case 'refused':
          return drop(frame.error);
        case 'closing':
          if (retiring) return;
          retiring = true;
          // The successor's own failures back off and retry as any connection's would.
          void connect();
          return;
        default:
          return;
      }
    });
    ws.on('error', (error) => {
      problem ??= error;
    });
    ws.on('close', (code, reason) => {
      for (const timer of timers) clearTimeout(timer);
      if (silence) clearTimeout(silence);
      sockets.delete(ws);
      resolveClosed();
      if (stopped || retiring) return;
      const healthy = subscribed && Date.now() - openedAt >= HEALTHY_MS;
      if (healthy && problem === undefined) {
        failures = 0;
        return again(Math.round(Math.random() * minBackoff));
      }
      failed(problem ?? new Error(`private stream closed ${code} ${reason.toString()}`.trim()));
    });
  };

  void connect();
  return async () => {
    if (stopped) return;
    stopped = true;
    if (retry) clearTimeout(retry);
    const open = [...sockets];
    for (const [ws] of open) ws.close(1000);
    // A peer that never answers the close frame must not keep the stop waiting.
    const force = setTimeout(() => {
      for (const [ws] of open) ws.terminate();
    }, 2000);
    await Promise.all(open.map(([, closed]) => closed));
    clearTimeout(force);
  };
};
