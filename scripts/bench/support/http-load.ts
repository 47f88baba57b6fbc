// Keep-alive HTTP load for the benchmarks: a closed loop (N requests in flight, each sent when the
// previous one answered) and a fixed rate (one request every 1/rate s whatever the answers), both
// with every latency kept for percentiles and the answers counted by status (429s reported apart).
import http from 'node:http';

export type LoadTarget = {
  name: string;
  url: string;
  method: 'GET' | 'POST';
  /** The path of the n-th request (a different user's coin bot, …). */
  path: (n: number) => string;
  /** The headers of the n-th request (a different user's session, …). */
  headers: (n: number) => Record<string, string>;
};

export type LoadResult = {
  seconds: number;
  ok: number;
  limited: number;
  failed: number;
  latenciesMs: number[];
};

export const emptyResult = (): LoadResult => ({ seconds: 0, ok: 0, limited: 0, failed: 0, latenciesMs: [] });

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const send = (target: LoadTarget, n: number, result: LoadResult): Promise<void> =>
  new Promise((resolve) => {
    const url = new URL(target.path(n), target.url);
    const at = performance.now();
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: target.method,
        agent,
        headers: { ...target.headers(n), 'content-length': 0 },
      },
      (response) => {
        response.resume();
        response.on('end', () => {
          result.latenciesMs.push(performance.now() - at);
          if (response.statusCode === 200) result.ok += 1;
          else if (response.statusCode === 429) result.limited += 1;
          else result.failed += 1;
          resolve();
        });
      },
    );
    request.on('error', () => {
      result.failed += 1;
      resolve();
    });
    request.end();
  });

/** `concurrency` requests in flight for `seconds`; requests numbered from `counter.next`. */
export const closedLoop = async (
  target: LoadTarget,
  {
    seconds,
    concurrency,
    counter,
    into,
  }: { seconds: number; concurrency: number; counter: { next: number }; into: LoadResult },
): Promise<void> => {
  const t0 = performance.now();
  const until = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) await send(target, counter.next++, into);
    }),
  );
  into.seconds += (performance.now() - t0) / 1000;
};

/** One request every 1/rate s for `seconds`; the achieved rate is `ok+limited+failed / seconds`. */
export const fixedRate = async (
  target: LoadTarget,
  { rate, seconds, counter }: { rate: number; seconds: number; counter: { next: number } },
): Promise<LoadResult> => {
  const result = emptyResult();
  const pending: Promise<void>[] = [];
  const t0 = performance.now();
  for (let i = 0; i < rate * seconds; i++) {
    const wait = t0 + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(send(target, counter.next++, result));
  }
  await Promise.all(pending);
  result.seconds = (performance.now() - t0) / 1000;
  return result;
};

export const percentile = (result: LoadResult, p: number): number => {
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};

export const perSecond = (result: LoadResult): number => result.ok / result.seconds;

export const closeLoadAgent = (): void => agent.destroy();
