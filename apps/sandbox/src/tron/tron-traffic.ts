/** One request to the node's HTTP API, as the sandbox saw it. */
export type TrafficEntry = {
  at: number;
  /** The route, e.g. `/wallet/getnodeinfo` or `/walletsolidity/gettransactioninfobyblocknum`. */
  path: string;
  /** The `TRON-PRO-API-KEY` header, null without one. */
  apiKey: string | null;
  /** 200, or the refusal's status when the key's budget was spent. */
  status: number;
  /** A refusal's wait in seconds: its Retry-After (429) or the suspension its text names (403, 503). */
  waitS?: number;
};

/**
 * A request budget per API key and window, the way TronGrid meters a key (its "Rate Limits"
 * page: a daily quota and a per-second frequency per key; over either, requests are refused —
 * 429 Too Many Requests with Retry-After here, or TronGrid's documented 403 / 503 with the
 * suspension in the body's `Error` text and no header).
 */
export type RequestQuota = { requests: number; windowMs: number; status?: 429 | 403 | 503 };

export type Admission =
  | { ok: true }
  | { ok: false; status: number; retryAfterS: number | undefined; waitS: number; message: string };

export type TrafficReport = {
  total: number;
  byPath: Record<string, number>;
  byKey: Record<string, number>;
  withoutApiKey: number;
  /** Requests refused because the key's budget was spent. */
  limited: number;
  quota: RequestQuota | null;
};

const KEPT_ENTRIES = 20_000;
const NO_KEY = '(none)';

/**
 * What the sandbox TRON node was asked — per path, per key, and the latest requests in order — so
 * tests and the watcher benchmark can measure requests per block, and an optional request budget
 * per key per window that refuses requests beyond it like TronGrid does.
 */
export class TronTraffic {
  private readonly paths = new Map<string, number>();
  private readonly keys = new Map<string, number>();
  private kept: TrafficEntry[] = [];
  private total = 0;
  private withoutApiKey = 0;
  private limited = 0;
  private quota: (Required<RequestQuota> & { since: number; used: Map<string, number> }) | undefined;
  private window = -1;

  constructor(private readonly now: () => number = Date.now) {}

  /** Counts a request to the node; refuses it when its key has spent this window's budget. */
  admit(path: string, apiKey: string | null): Admission {
    const at = this.now();
    this.total += 1;
    this.paths.set(path, (this.paths.get(path) ?? 0) + 1);
    this.keys.set(apiKey ?? NO_KEY, (this.keys.get(apiKey ?? NO_KEY) ?? 0) + 1);
    if (apiKey === null) this.withoutApiKey += 1;
    const refusal = this.spend(apiKey ?? NO_KEY, at);
    const entry: TrafficEntry = { at, path, apiKey, status: refusal?.status ?? 200 };
    if (refusal) entry.waitS = refusal.waitS;
    this.kept.push(entry);
    if (this.kept.length > KEPT_ENTRIES) this.kept = this.kept.slice(-KEPT_ENTRIES / 2);
    if (!refusal) return { ok: true };
    this.limited += 1;
    return refusal;
  }

  private spend(key: string, at: number): Extract<Admission, { ok: false }> | undefined {
    const quota = this.quota;
    if (!quota) return undefined;
    const window = Math.floor((at - quota.since) / quota.windowMs);
    if (window !== this.window) {
      this.window = window;
      quota.used.clear();
    }
    const used = quota.used.get(key) ?? 0;
    if (used < quota.requests) {
      quota.used.set(key, used + 1);
      return undefined;
    }
    const waitS = Math.max(1, Math.ceil((quota.since + (window + 1) * quota.windowMs - at) / 1000));
    const message = `The key exceeds the frequency limit(${quota.requests}), and the query server is suspended for ${waitS}s`;
    // TronGrid's 403 and 503 name the suspension in the text only; a 429 carries Retry-After.
    return {
      ok: false,
      status: quota.status,
      retryAfterS: quota.status === 429 ? waitS : undefined,
      waitS,
      message,
    };
  }

  /** Imposes a budget of `requests` per key per `windowMs` from now on (undefined: none). */
  setQuota(quota: RequestQuota | undefined): void {
    this.window = -1;
    this.quota = quota && {
      requests: quota.requests,
      windowMs: quota.windowMs,
      status: quota.status ?? 429,
      since: this.now(),
      used: new Map(),
    };
  }

  report(): TrafficReport {
    return {
      total: this.total,
      byPath: Object.fromEntries(this.paths),
      byKey: Object.fromEntries(this.keys),
      withoutApiKey: this.withoutApiKey,
      limited: this.limited,
      quota: this.quota
        ? { requests: this.quota.requests, windowMs: this.quota.windowMs, status: this.quota.status }
        : null,
    };
  }

  /** The latest requests, oldest first. */
  entries(): readonly TrafficEntry[] {
    return this.kept;
  }

  /** Forgets every count and entry (the quota stays). */
  reset(): void {
    this.paths.clear();
    this.keys.clear();
    this.kept = [];
    this.total = 0;
    this.withoutApiKey = 0;
    this.limited = 0;
  }
}
