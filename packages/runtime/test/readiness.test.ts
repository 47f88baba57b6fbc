import { describe, expect, it } from 'vitest';
import { createReadiness, healthPortOf, provideReadinessDetail, readinessStatusCode } from '../src';

const never = () => new Promise<never>(() => undefined);

describe('readiness', () => {
  it("carries what the process's work provides as detail, never as a reason to fail", async () => {
    const remove = provideReadinessDetail('hotWallet', () => ({ usdt: '12.5' }));
    const broken = provideReadinessDetail('other', () => {
      throw new Error('not read yet');
    });
    const report = await createReadiness([{ name: 'database', check: async () => 1 }]).report();
    expect(report).toMatchObject({
      status: 'ready',
      detail: { hotWallet: { usdt: '12.5' }, other: { error: 'not read yet' } },
    });
    remove();
    broken();
    expect((await createReadiness([]).report()).detail).toBeUndefined();
  });

  it('is ready when every dependency answers', async () => {
    const readiness = createReadiness([
      { name: 'database', check: async () => 1 },
      { name: 'queue', check: async () => undefined },
    ]);
    const report = await readiness.report();
    expect(report).toEqual({ status: 'ready', failing: [], checks: { database: 'ok', queue: 'ok' } });
    expect(readinessStatusCode(report)).toBe(200);
  });

  it('names each failing dependency with a one-line reason, a hung one included', async () => {
    const readiness = createReadiness(
      [
        { name: 'database', check: never },
        {
          name: 'redis',
          check: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379\n  at …')),
        },
        { name: 'queue', check: async () => undefined },
      ],
      { timeoutMs: 50 },
    );
    const report = await readiness.report();
    expect(report.status).toBe('not_ready');
    expect(report.failing).toEqual(['database', 'redis']);
    expect(report.checks).toEqual({
      database: 'no answer within 50 ms',
      redis: 'connect ECONNREFUSED 127.0.0.1:6379',
      queue: 'ok',
    });
    expect(readinessStatusCode(report)).toBe(503);
  });

  it('says stopping once marked, without asking the dependencies', async () => {
    let asked = 0;
    const readiness = createReadiness([{ name: 'database', check: async () => (asked += 1) }]);
    readiness.markStopping();
    const report = await readiness.report();
    expect(report.status).toBe('stopping');
    expect(readinessStatusCode(report)).toBe(503);
    expect(asked).toBe(0);
    expect(readiness.stopping).toBe(true);
  });
});

describe('health port', () => {
  it('is the app default unless HEALTH_PORT names one or turns it off', () => {
    expect(healthPortOf({}, 'worker')).toBe(9101);
    expect(healthPortOf({}, 'watcher')).toBe(9102);
    expect(healthPortOf({}, 'bot')).toBe(9103);
    expect(healthPortOf({}, 'sandbox')).toBe(9104);
    expect(healthPortOf({ HEALTH_PORT: 8081 }, 'worker')).toBe(8081);
    expect(healthPortOf({ HEALTH_PORT: 'off' }, 'bot')).toBeUndefined();
  });
});
