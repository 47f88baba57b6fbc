// The API part of the fleet benchmark (fleet.ts): `POST /home/`, `POST /wallet` and
// `POST /portfolio/trades` through the fleet's proxy, closed loop and interleaved in rounds with the
// floor (two bare Fastify processes behind the same kind of proxy), then `POST /home/` at a fixed
// rate. Users go round robin, so no per-user rate limit is hit (429s are counted and reported).
import { readFileSync } from 'node:fs';
import type { Fleet } from '../../fleet/start-fleet';
import {
  closedLoop,
  emptyResult,
  fixedRate,
  type LoadResult,
  type LoadTarget,
  percentile,
  perSecond,
} from './http-load';
import type { SeededUser } from './seed-panel';

const CONCURRENCY = 16;
const ROUNDS = 3;
const SLICE_SECONDS = 3;
const WARM_UP_SECONDS = 2;
const RATE = 500;
const RATE_SECONDS = 10;
const TARGET_P99_MS = 25;
const TARGET_RATIO = 0.4;

const ms = (value: number) => `${value.toFixed(1)} ms`;
const pct = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
/** The machine's load average (1, 5, 15 min): the figures mean little without it on shared cores. */
export const loadAverage = (): string =>
  readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Prints the figures and ratios; true when the panel target (docs/performance.md#panel) holds. */
export const measureApi = async ({
  fleet,
  bareUrl,
  users,
  firstBot,
}: {
  fleet: Fleet;
  bareUrl: string;
  users: SeededUser[];
  firstBot: Map<number, number>;
}): Promise<boolean> => {
  const { createSessionTokens } = await import('@gridbot/services');
  const tokens = createSessionTokens(fleet.secrets.jwtSecret);
  const auth = await Promise.all(
    users.map(async (u) => `Bearer ${(await tokens.issue({ userId: u.id, uid: u.uid })).token}`),
  );
  const asUser = (n: number) => ({ authorization: auth[n % auth.length] as string });
  const api = (name: string, path: (n: number) => string): LoadTarget => ({
    name,
    url: fleet.url,
    method: 'POST',
    path,
    headers: asUser,
  });
  const targets = [
    api('POST /home/', () => '/home/'),
    api('POST /wallet', () => '/wallet'),
    api(
      'POST /portfolio/trades',
      (n) => `/portfolio/trades?coin_user_id=${firstBot.get(users[n % users.length]?.id as number)}`,
    ),
  ];
  const floor: LoadTarget = {
    name: 'bare route',
    url: bareUrl,
    method: 'GET',
    path: () => '/bench/bare',
    headers: () => ({}),
  };
  const counters = new Map([...targets, floor].map((t) => [t.name, { next: 0 }]));
  const results = new Map([...targets, floor].map((t) => [t.name, emptyResult()]));
  for (const target of [...targets, floor]) {
    const warm = emptyResult();
    await closedLoop(target, {
      seconds: WARM_UP_SECONDS,
      concurrency: CONCURRENCY,
      counter: counters.get(target.name) as { next: number },
      into: warm,
    });
    if (warm.ok === 0) throw new Error(`${target.name}: nothing answered 200 in the warm-up`);
  }
  const loadDuring: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of [floor, ...targets]) {
      await closedLoop(target, {
        seconds: SLICE_SECONDS,
        concurrency: CONCURRENCY,
        counter: counters.get(target.name) as { next: number },
        into: results.get(target.name) as LoadResult,
      });
    }
    loadDuring.push(loadAverage());
  }
  const rate = await fixedRate(targets[0] as LoadTarget, {
    rate: RATE,
    seconds: RATE_SECONDS,
    counter: counters.get('POST /home/') as { next: number },
  });
  loadDuring.push(loadAverage());

  const floorRps = perSecond(results.get(floor.name) as LoadResult);
  console.log(
    `API through the fleet (2 api processes behind the proxy), closed loop ${CONCURRENCY} in flight, ${ROUNDS} × ${SLICE_SECONDS} s interleaved:`,
  );
  for (const target of [floor, ...targets]) {
    const r = results.get(target.name) as LoadResult;
    console.log(
      `  ${target.name.padEnd(22)} ${perSecond(r).toFixed(0).padStart(5)} req/s  p50 ${ms(percentile(r, 0.5))}  p99 ${ms(percentile(r, 0.99))}  ` +
        `${target === floor ? '(floor)' : `${pct(perSecond(r) / floorRps)} of the floor`}  429: ${r.limited}  other non-200: ${r.failed}`,
    );
  }
  const achieved = (rate.ok + rate.limited + rate.failed) / rate.seconds;
  const p99 = percentile(rate, 0.99);
  console.log(
    `POST /home/ at a fixed ${RATE} req/s for ${RATE_SECONDS} s (achieved ${achieved.toFixed(0)} req/s): ` +
      `p50 ${ms(percentile(rate, 0.5))}  p90 ${ms(percentile(rate, 0.9))}  p99 ${ms(p99)}  429: ${rate.limited}  other non-200: ${rate.failed}`,
  );
  console.log(`  load average while measuring (1/5/15 min): ${loadDuring.join(' | ')}`);
  const homeRatio = perSecond(results.get('POST /home/') as LoadResult) / floorRps;
  const limited = [...results.values()].reduce((n, r) => n + r.limited, rate.limited);
  const apiPass = p99 <= TARGET_P99_MS && homeRatio >= TARGET_RATIO && rate.failed === 0 && limited === 0;
  console.log(
    `${apiPass ? 'PASS' : 'MISSED'}: POST /home/ p99 ≤ ${TARGET_P99_MS} ms at ${RATE} req/s and ≥ ${TARGET_RATIO * 100} % of a bare route ` +
      `(here ${ms(p99)}, ${pct(homeRatio)}; the target is for one core, this is the whole fleet on 2 shared cores)`,
  );

  return apiPass;
};
