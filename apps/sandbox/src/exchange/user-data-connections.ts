import { binance, type StreamRules } from '@gridbot/venues';
import { BinanceError } from './binance-error';

/** The WebSocket API's rules the sandbox enforces (docs/venues/binance.md#user-data-stream). */
export type UserDataLimits = Omit<StreamRules, 'doc'> & {
  /** The server pings every connection this often (Binance: 20 s)… */
  pingIntervalMs: number;
  /** …and drops one that has not answered a ping for this long (Binance: a minute). */
  pongTimeoutMs: number;
};

export const BINANCE_USER_DATA_LIMITS: UserDataLimits = {
  connectionsPerWindow: binance.userStream.connectionsPerWindow,
  connectionWindowMs: binance.userStream.connectionWindowMs,
  connectionLifeMs: binance.userStream.connectionLifeMs,
  subscriptionsPerConnection: binance.userStream.subscriptionsPerConnection,
  subscriptionsPerConnectionLifetime: binance.userStream.subscriptionsPerConnectionLifetime,
  pingIntervalMs: 20_000,
  pongTimeoutMs: 60_000,
};

/** One WebSocket API connection as the control API shows it. */
export type UserDataConnectionView = {
  id: number;
  ip: string;
  openedAt: number;
  /** Active subscriptions, by id. */
  subscriptions: number[];
  /** Subscriptions started over its life. */
  started: number;
};

/** What the server side of one connection exposes to the registry (user-data-socket.ts). */
export type UserDataConnectionHandle = {
  view: () => UserDataConnectionView;
  /** Sends `serverShutdown`, then closes the connection after `closeAfterMs`. */
  shutdown: (closeAfterMs: number) => void;
  /** Cuts the connection without a word (a network failure). */
  drop: () => void;
};

const refusedTooMany = (limits: UserDataLimits) =>
  new BinanceError(
    -1034,
    `Too many connection attempts from IP; current limit is ${limits.connectionsPerWindow} per '${limits.connectionWindowMs / 60_000} minutes'.`,
    429,
  );

/**
 * The WebSocket API's connections: who is connected, the per-IP connection attempts (300 per
 * 5 minutes), and the limits in force (Binance's by default; tests shorten them through the
 * control API). web-socket-api.md "Connection limits", "User Data Stream subscriptions".
 */
export class UserDataConnections {
  limits: UserDataLimits;
  private readonly attempts = new Map<string, number[]>();
  private readonly open = new Set<UserDataConnectionHandle>();
  private nextId = 1;
  /** Connections accepted and refused since the start (the control API reports them). */
  accepted = 0;
  refused = 0;

  constructor(limits: Partial<UserDataLimits> = {}) {
    this.limits = { ...BINANCE_USER_DATA_LIMITS, ...limits };
  }

  /**
   * Counts a connection attempt from `ip`; throws Binance's -1034 (HTTP 429, with the seconds until
   * an attempt leaves the window) when the IP made its limit's worth within the window. Binance
   * does not document how it refuses the handshake: the sandbox answers the upgrade with HTTP 429
   * and the error body, as its REST API does over a limit. Refused attempts do not count.
   */
  admit(ip: string): number {
    const now = Date.now();
    const window = (this.attempts.get(ip) ?? []).filter((at) => at > now - this.limits.connectionWindowMs);
    this.attempts.set(ip, window);
    if (window.length >= this.limits.connectionsPerWindow) {
      this.refused++;
      const retryAfterMs = window[0]! + this.limits.connectionWindowMs - now;
      throw Object.assign(refusedTooMany(this.limits), { retryAfterMs });
    }
    window.push(now);
    this.accepted++;
    return this.nextId++;
  }

  add(connection: UserDataConnectionHandle): () => void {
    this.open.add(connection);
    return () => this.open.delete(connection);
  }

  connections(): UserDataConnectionView[] {
    return [...this.open].map((c) => c.view());
  }

  /** Sends `serverShutdown` to every connection (or those listed) and closes them after `closeAfterMs`. */
  shutdown(closeAfterMs: number, ids?: number[]): number {
    const chosen = [...this.open].filter((c) => !ids || ids.includes(c.view().id));
    for (const connection of chosen) connection.shutdown(closeAfterMs);
    return chosen.length;
  }

  /** Cuts every connection (or those listed) without warning; answers how many. */
  drop(ids?: number[]): number {
    const chosen = [...this.open].filter((c) => !ids || ids.includes(c.view().id));
    for (const connection of chosen) connection.drop();
    return chosen.length;
  }

  setLimits(limits: Partial<UserDataLimits>): UserDataLimits {
    this.limits = { ...this.limits, ...limits };
    return this.limits;
  }
}
