/** One dependency /readyz asks: resolves when it answers, throws (or times out) when it does not. */
export type ReadinessCheck = { name: string; check: () => Promise<unknown> };

export type ReadinessReport = {
  /** ready: every check passed; not_ready: at least one failed; stopping: the process is shutting down. */
  status: 'ready' | 'not_ready' | 'stopping';
  /** The failing dependencies by name (empty when ready). */
  failing: string[];
  /** Each check's outcome: `ok`, or why it failed. */
  checks: Record<string, string>;
  /** What this process knows about its work, for an operator (never a reason to fail): the hot wallet… */
  detail?: Record<string, unknown>;
};

const details = new Map<string, () => unknown>();

/**
 * Adds a section to every /readyz answer of this process (`detail.<name>`), e.g. the watcher's
 * last reading of the hot wallet; in the embedded process the API's /readyz carries it too.
 * Informative only: it never makes the process unready. Returns the way to remove it.
 */
export const provideReadinessDetail = (name: string, read: () => unknown): (() => void) => {
  details.set(name, read);
  return () => {
    if (details.get(name) === read) details.delete(name);
  };
};

const readDetails = (): Record<string, unknown> | undefined => {
  if (details.size === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, read] of details) {
    try {
      out[name] = read();
    } catch (error) {
      out[name] = { error: reasonOf(error) };
    }
  }
  return out;
};

export type Readiness = {
  /** Runs every check (in parallel, each bounded by the timeout). */
  report: () => Promise<ReadinessReport>;
  /** From now on the report says `stopping` (the first step of a graceful stop). */
  markStopping: () => void;
  readonly stopping: boolean;
};

/** Long enough for a busy database, short enough that a probe never piles up behind a hung one. */
const CHECK_TIMEOUT_MS = 2000;

const withTimeout = (promise: Promise<unknown>, ms: number): Promise<unknown> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
};

const reasonOf = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error);
  // One line, bounded: the body is for a probe and an operator, not a stack trace.
  return message.split('\n')[0]!.slice(0, 200) || 'failed';
};

/**
 * A process's readiness (docs/operations.md#health): the dependencies it cannot serve without
 * (database, Redis, queue) and whether it is shutting down. While stopping, the report says so
 * without asking anything: the dependencies may be closing on purpose.
 */
export const createReadiness = (
  checks: readonly ReadinessCheck[],
  options: { timeoutMs?: number } = {},
): Readiness => {
  let stopping = false;
  const timeoutMs = options.timeoutMs ?? CHECK_TIMEOUT_MS;
  return {
    get stopping() {
      return stopping;
    },
    markStopping: () => {
      stopping = true;
    },
    report: async () => {
      if (stopping) return { status: 'stopping', failing: [], checks: {} };
      const outcomes = await Promise.all(
        checks.map(async ({ name, check }) => {
          try {
            await withTimeout(Promise.resolve().then(check), timeoutMs);
            return [name, 'ok'] as const;
          } catch (error) {
            return [name, reasonOf(error)] as const;
          }
        }),
      );
      const failing = outcomes.filter(([, outcome]) => outcome !== 'ok').map(([name]) => name);
      // A stop that began while the checks ran wins: the process is leaving either way.
      if (stopping) return { status: 'stopping', failing: [], checks: {} };
      const detail = readDetails();
      return {
        status: failing.length === 0 ? 'ready' : 'not_ready',
        failing,
        checks: Object.fromEntries(outcomes),
        ...(detail ? { detail } : {}),
      };
    },
  };
};

/** What /healthz answers: the process is up and its event loop ran this handler. */
export const livenessBody = () => ({ status: 'ok' as const, uptimeS: Math.round(process.uptime()) });

/** The HTTP status of a readiness report: 200 only when ready. */
export const readinessStatusCode = (report: ReadinessReport) => (report.status === 'ready' ? 200 : 503);
