import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The Bybit and OKX dialects' log of the requests to their venue endpoints (as the Binance
 * dialect's `requestLog`, rate-limits.ts): what a benchmark or a test reads to count requests per
 * window and owner, and the rate-limit refusals among them.
 */
export type DialectLoggedRequest = {
  /** When it arrived (ms since the epoch). */
  time: number;
  ip: string;
  method: string;
  /** Without the query string. */
  path: string;
  /** The account of the key that signed it (none for public calls and unknown keys). */
  accountId?: number;
  /** The HTTP status answered (Bybit answers 10006 with 200: see `refusal`). */
  status: number;
  /** The venue's code when the dialect's rate limits refused it (Bybit 10006 or `ban`, OKX 50011). */
  refusal?: string;
  /** The refusal was forced through the control API (`limits/force`), not a count going over. */
  forced?: boolean;
};

const LOG_SIZE = 50_000;

export class DialectRequestLog {
  private entries: DialectLoggedRequest[] = [];
  private readonly open = new WeakMap<FastifyRequest, DialectLoggedRequest>();

  /** Logs `request` from its arrival; its status is filled in when it is answered. */
  arrived(request: FastifyRequest, entry: Omit<DialectLoggedRequest, 'status'>): void {
    const logged = { ...entry, status: 0 };
    this.open.set(request, logged);
    this.entries.push(logged);
    if (this.entries.length > LOG_SIZE) this.entries.splice(0, this.entries.length - LOG_SIZE);
  }

  refused(request: FastifyRequest, code: string, forced = false): void {
    const entry = this.open.get(request);
    if (!entry) return;
    entry.refusal = code;
    if (forced) entry.forced = true;
  }

  since(time = 0): DialectLoggedRequest[] {
    return this.entries.filter((r) => r.time >= time);
  }

  clear(): void {
    this.entries = [];
  }

  /** Fills in each logged request's status once it is answered. */
  attach(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      const entry = this.open.get(request);
      if (entry) entry.status = reply.statusCode;
    });
  }
}
