import { type EndpointDefinition, type EndpointId, endpoints, errorCatalogue } from '@gridbot/contracts';
import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { demoXpub } from '@gridbot/services';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTables, type Fingerprint, fingerprint } from './support/fuzz/db-fingerprint';
import { type AuthHeaders, forgedTokens } from './support/fuzz/forged-tokens';
import { createFuzzCast, FUZZ_COINS, type FuzzCast } from './support/fuzz/fuzz-cast';
import { describeInject, type FuzzRequest, toInject } from './support/fuzz/fuzz-request';
import { createFuzzStats } from './support/fuzz/fuzz-stats';
import { fuzzRequest } from './support/fuzz/hostile-request';
import { HugeString, ONE_MB } from './support/fuzz/hostile-values';
import { foreignIdFields } from './support/fuzz/id-ownership';
import { plausibleFields } from './support/fuzz/plausible-fields';
import { createTestApp, type TestApp } from './support/test-app';

/**
 * Hostile input (docs/security.md#hostile-input): every contract of the registry is fuzzed with
 * requests derived from its zod schemas, half of them mutated into hostile ones (wrong types,
 * huge and odd strings, numbers JSON cannot hold, prototype keys, extra and missing fields, wrong
 * bodies and content types, forged tokens, other users' ids). Every answer must be 2xx or 4xx with
 * the one error body, and a refused request must leave the database as it was.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_127);
/** Attackers take turns so that per-user limits (1 call per 1–3 s) rarely answer instead of the handler. */
const ATTACKERS = { equipped: 4, plain: Math.max(RUNS - 4, 2) };

/** Contracts the fuzz leaves out, each with the reason (none today). */
const SKIPPED: Partial<Record<EndpointId, string>> = {};

const fuzzed: readonly EndpointDefinition[] = endpoints.filter((endpoint) => !(endpoint.id in SKIPPED));

let sandbox: SandboxExchangeHandle;
let t: TestApp;
let cast: FuzzCast;
let authHeader: AuthHeaders;
const stats = createFuzzStats();
let requestCount = 0;
/** The database as the previous request left it (each request is compared with it). */
let lastState: Fingerprint;

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    markets: FUZZ_COINS.map((base) => ({
      base,
      quote: 'USDT',
      tickSize: '0.0001',
      stepSize: '0.1',
      minNotional: '5',
      feed: { kind: 'fixed' as const, price: '0.5' },
    })),
  });
  t = await createTestApp(
    { WALLET_XPUB: demoXpub(), WITHDRAW_AUTO_APPROVE_USDT: '20', WITHDRAW_ADDRESS_LOCK_HOURS: '0' },
    {
      demo: true,
      sandboxUrl: sandbox.url,
      routes: (app) => {
        app.addHook('preHandler', async (request) => {
          const id = request.routeOptions.config.endpoint?.id;
          if (id && cast) stats.reached(id);
        });
      },
    },
  );
  cast = await createFuzzCast(t, sandbox, ATTACKERS);
  lastState = await fingerprint(t.prisma);
  authHeader = forgedTokens(t.tokens, { userId: cast.victim.user.id, uid: cast.victim.user.uid });
  console.info(
    `hostile-input fuzz: seed ${SEED}, ${RUNS} runs per contract, ${fuzzed.length} contracts ` +
      '(FUZZ_SEED and FUZZ_RUNS change them)',
  );
}, 120_000);

afterAll(async () => {
  console.info(stats.report());
  await t?.close();
  await sandbox?.close();
});

/** Plausible values for the fields whose schema alone rarely yields an accepted one. */
const fieldArbitraries = () =>
  plausibleFields({
    coins: FUZZ_COINS,
    ids: cast.ids,
    addresses: cast.addresses,
    apiKeys: cast.apiKeys,
    launchData: [
      t.launchData({
        telegramId: cast.attackers[0]!.user.telegramId,
        username: cast.attackers[0]!.user.username,
      }),
      t.launchData({ telegramId: cast.victim.user.telegramId, username: 'renamed' }),
      t.launchData({ telegramId: 7_000_000_001n, username: 'newcomer' }, { startParam: 'ref_root' }),
      t.launchData(
        { telegramId: 7_000_000_002n, username: 'stale' },
        { authDate: new Date(Date.now() - 86_400_000) },
      ),
    ],
  });

const nextAddress = () => {
  requestCount += 1;
  const n = requestCount;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

const isErrorBody = (status: number, body: unknown) => {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return (
    b.error === true &&
    b.status === status &&
    typeof b.code === 'string' &&
    b.code in errorCatalogue &&
    typeof b.message === 'string' &&
    b.message.length > 0 &&
    typeof b.detail === 'string' &&
    b.detail.length > 0
  );
};

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** Sends one fuzzed request and checks every rule; throws with a readable report when one breaks. */
const check = async (endpoint: EndpointDefinition, request: FuzzRequest) => {
  const attacker = cast.attackers[requestCount % cast.attackers.length]!;
  const claims = { userId: attacker.user.id, uid: attacker.user.uid };
  const options = toInject(endpoint, request, await authHeader(request.auth, claims), nextAddress());
  const before = lastState;
  const answer = await t.app.inject(options);
  lastState = await fingerprint(t.prisma);
  stats.answered(endpoint.id, answer.statusCode);
  const fail = (rule: string) => {
    throw new Error(
      `${rule}\n${describeInject(options)}\n→ ${answer.statusCode} ${answer.body.slice(0, 500)}`,
    );
  };
  if (answer.statusCode >= 500) fail('a 5xx answer');
  if (answer.statusCode < 200) fail('not a final answer');
  if (answer.statusCode >= 400) {
    if (!isErrorBody(answer.statusCode, parse(answer.body))) fail('a 4xx without the one error body');
    const changed = changedTables(before, lastState);
    if (changed.length > 0) fail(`a refused request changed ${changed.join(', ')}`);
    return;
  }
  // Only the attacker's own token, or a signed one of a user who does not exist, may be let in.
  if (endpoint.auth && request.auth !== 'attacker' && request.auth !== 'unknown-user') {
    fail(`2xx to a request with a ${request.auth} token`);
  }
  if (endpoint.auth && request.auth === 'attacker') {
    const foreign = await foreignIdFields(t.prisma, attacker.user, request);
    if (foreign.length > 0) fail(`2xx with another user's id (${foreign.join(', ')})`);
  }
};

describe('hostile input on every contract', () => {
  it('fuzzes every contract of the registry, or says why not', () => {
    for (const [id, reason] of Object.entries(SKIPPED)) {
      expect(
        endpoints.some((endpoint) => endpoint.id === id),
        `${id} is not a contract`,
      ).toBe(true);
      expect(reason?.trim().length ?? 0, `${id} is skipped without a reason`).toBeGreaterThan(10);
    }
    expect(fuzzed.length + Object.keys(SKIPPED).length).toBe(endpoints.length);
  });

  it.each(fuzzed.map((endpoint) => [endpoint.id, endpoint] as const))(
    '%s: 2xx or 4xx with the error body, refusals change nothing',
    async (_id, endpoint) => {
      await fc.assert(
        fc.asyncProperty(fuzzRequest(endpoint, fieldArbitraries()), (request) => check(endpoint, request)),
        { seed: SEED, numRuns: RUNS },
      );
    },
    30_000 + RUNS * 1_000,
  );

  it('answers 413 with the error body to a body over the limit, on every POST contract', async () => {
    // A user of its own: the attackers may have spent the calls' rate limits.
    const user = await t.createUser({ username: 'fuzz_oversized' });
    const authorization = await authHeader('attacker', { userId: user.id, uid: user.uid });
    const params = { coin: 'XRP', name: 'theme', period: 'current_month' };
    const body = { kind: 'json' as const, value: { coin: 'XRP', padding: new HugeString('x', ONE_MB) } };
    const before = await fingerprint(t.prisma);
    const wrong: string[] = [];
    for (const endpoint of fuzzed.filter((e) => e.method === 'POST')) {
      const request: FuzzRequest = { auth: 'attacker', params, query: {}, headers: {}, body };
      const answer = await t.app.inject(toInject(endpoint, request, authorization, nextAddress()));
      const ok = answer.statusCode === 413 && isErrorBody(413, parse(answer.body));
      if (!ok || answer.json().code !== 'PAYLOAD_TOO_LARGE')
        wrong.push(`${endpoint.id}: ${answer.statusCode}`);
    }
    lastState = await fingerprint(t.prisma);
    expect(wrong).toEqual([]);
    expect(changedTables(before, lastState)).toEqual([]);
  });

  it('left Object.prototype alone', () => {
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(Object.prototype)).toEqual([]);
  });
});
