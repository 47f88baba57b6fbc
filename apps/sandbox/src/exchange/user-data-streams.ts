import { randomBytes } from 'node:crypto';
import { binanceErrors } from './binance-error';
import type { OrderEvent } from './matching-engine';
import type { SandboxExchange } from './sandbox-exchange';
import { accountPositionJson, executionReportJson } from './user-data-events';

/** Binance: a listenKey lives 60 minutes after its creation or last keepalive. */
const LISTEN_KEY_TTL_MS = 60 * 60_000;

export type UserDataEvent = ReturnType<typeof executionReportJson> | ReturnType<typeof accountPositionJson>;

/** Someone listening to one account's events; `end` is called when its listenKey goes away. */
type Subscriber = { send: (event: UserDataEvent) => void; end: () => void; listenKey?: string };

/**
 * The accounts' user data streams: listenKeys (REST) and the subscribers of each account (the
 * WebSocket connections, whether opened with a listenKey or subscribed through the WebSocket API).
 * Every order change of the matching engine is pushed to the subscribers of its account.
 */
export class UserDataStreams {
  private readonly listenKeys = new Map<string, { accountId: number; expiresAt: number }>();
  private readonly subscribers = new Map<number, Set<Subscriber>>();
  private readonly unsubscribeEngine: () => void;

  constructor(private readonly exchange: SandboxExchange) {
    this.unsubscribeEngine = exchange.engine.onOrderEvent((event) => this.publish(event));
  }

  /** Binance returns the account's active listenKey (extended) when it has one. */
  createListenKey(accountId: number): string {
    for (const [listenKey, entry] of this.listenKeys) {
      if (entry.accountId === accountId && entry.expiresAt > Date.now()) {
        entry.expiresAt = Date.now() + LISTEN_KEY_TTL_MS;
        return listenKey;
      }
    }
    const listenKey = randomBytes(30).toString('base64url').slice(0, 60);
    this.listenKeys.set(listenKey, { accountId, expiresAt: Date.now() + LISTEN_KEY_TTL_MS });
    return listenKey;
  }

  keepAlive(accountId: number, listenKey: string): void {
    const entry = this.live(listenKey);
    if (entry?.accountId !== accountId) throw binanceErrors.listenKeyUnknown();
    entry.expiresAt = Date.now() + LISTEN_KEY_TTL_MS;
  }

  /** Closes the listenKey and every connection opened with it. */
  closeListenKey(accountId: number, listenKey: string): void {
    const entry = this.live(listenKey);
    if (entry?.accountId !== accountId) throw binanceErrors.listenKeyUnknown();
    this.listenKeys.delete(listenKey);
    for (const subscriber of [...(this.subscribers.get(accountId) ?? [])]) {
      if (subscriber.listenKey === listenKey) subscriber.end();
    }
  }

  /** The account a live listenKey belongs to; undefined for an unknown or expired one. */
  accountOf(listenKey: string): number | undefined {
    return this.live(listenKey)?.accountId;
  }

  /** Adds a subscriber to the account's events; returns the function that removes it. */
  subscribe(accountId: number, subscriber: Subscriber): () => void {
    const set = this.subscribers.get(accountId) ?? new Set<Subscriber>();
    set.add(subscriber);
    this.subscribers.set(accountId, set);
    return () => set.delete(subscriber);
  }

  /** How many connections follow the account (lets a test wait until a client is subscribed). */
  subscriberCount(accountId: number): number {
    return this.subscribers.get(accountId)?.size ?? 0;
  }

  close(): void {
    this.unsubscribeEngine();
    for (const set of this.subscribers.values()) for (const subscriber of [...set]) subscriber.end();
    this.subscribers.clear();
  }

  private live(listenKey: string) {
    const entry = this.listenKeys.get(listenKey);
    if (entry && entry.expiresAt <= Date.now()) {
      this.listenKeys.delete(listenKey);
      return undefined;
    }
    return entry;
  }

  private publish(event: OrderEvent): void {
    const set = this.subscribers.get(event.order.accountId);
    if (!set || set.size === 0) return;
    const now = Date.now();
    const { market } = this.exchange.market(event.order.symbol);
    const moved = new Set([market.base, market.quote]);
    // A fee paid in BNB moves a third asset (commission.ts).
    if (event.kind === 'TRADE') moved.add(event.trade.commissionAsset);
    const account = this.exchange.accounts.account(event.order.accountId);
    const balances = this.exchange.accounts.balances(account.id).filter((b) => moved.has(b.asset));
    const report = executionReportJson(event, now);
    const position = accountPositionJson(balances, now, account.updatedAt);
    for (const subscriber of set) {
      subscriber.send(report);
      subscriber.send(position);
    }
  }
}
