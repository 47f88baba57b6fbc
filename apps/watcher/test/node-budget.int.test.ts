import { toMicro } from '@gridbot/ledger';
import type { TrafficEntry } from '@gridbot/sandbox';
import { type ChainContext, DEPOSIT_CURSOR, type Logger } from '@gridbot/services';
import { silentLogger } from '@gridbot/services/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startWatcher, type Watcher } from '../src/start-watcher';
import { type ChainHarness, createChainHarness } from './support/chain-harness';

// The watcher against the sandbox node's request counter (docs/wallet.md#within-trongrids-budget):
// TronGrid grants a key 100,000 requests a day, and the chain makes 28,800 blocks a day.
const API_KEY = 'budget-test-key';
const CAROL = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

let h: ChainHarness;
let ctx: ChainContext;
const warnings: string[] = [];
const recordingLog: Logger = {
  ...silentLogger,
  warn: (fields: object | string, message?: string) => {
    warnings.push(typeof fields === 'string' ? fields : (message ?? ''));
  },
  child: () => recordingLog,
};
const running: Watcher[] = [];

beforeAll(async () => {
  h = await createChainHarness();
  ctx = { ...h.ctx, env: { ...h.env, TRON_API_KEY: API_KEY }, log: recordingLog };
  h.tron.mine(40);
});
afterEach(async () => {
  for (const watcher of running.splice(0)) await watcher.stop();
  h.tron.traffic.setQuota(undefined);
});
afterAll(async () => {
  await h.close();
});

/** A watcher whose passes the test runs (`runOnce`), caught up with the chain before it returns. */
const caughtUpWatcher = async (options: { intervalMs?: number; batchBlocks?: number } = {}) => {
  const watcher = startWatcher({
    ctx,
    nodeUrl: h.sandbox.url,
    hot: h.hot,
    intervalMs: options.intervalMs ?? 600_000,
    ...(options.batchBlocks ? { batchBlocks: options.batchBlocks } : {}),
  });
  running.push(watcher);
  await watcher.runOnce();
  await watcher.runOnce();
  return watcher;
};

const decidedCursor = async () =>
  Number((await h.prisma.chainCursor.findUniqueOrThrow({ where: { name: DEPOSIT_CURSOR } })).blockNumber);

describe('the watcher within the node request budget', () => {
  it('sends at most 3 requests per block at steady state, with the API key on each', async () => {
    const alice = await h.createUser();
    const watcher = await caughtUpWatcher();
    h.tron.traffic.reset();
    const sent: number[] = [];
    for (let i = 0; i < 30; i += 1) {
      if (i % 3 === 0) {
        h.tron.send({ to: alice.address, amount: `${11 + i}` });
        sent.push(11 + i);
      }
      h.tron.mine(1);
      await watcher.runOnce();
    }
    const report = h.tron.traffic.report();
    // Heights once per pass, each new head block's transaction infos once, each newly solidified
    // block's once; no whole blocks, nothing for withdrawals when none is in flight.
    expect(report.byPath).toEqual({
      '/wallet/getnodeinfo': 30,
      '/wallet/gettransactioninfobyblocknum': 30,
      '/walletsolidity/gettransactioninfobyblocknum': 30,
    });
    expect(report.total / 30).toBeLessThanOrEqual(3);
    expect(report).toMatchObject({ withoutApiKey: 0, byKey: { [API_KEY]: report.total } });
    // Sent at passes 0, 3, 6, 9 (blocks solidified within the 30): credited; the rest seen.
    expect((await h.deposits(alice.id)).map((d) => d.status)).toEqual([
      ...Array(4).fill('credited'),
      ...Array(6).fill('pending'),
    ]);
    expect(await h.mainBalance(alice.id)).toBe(toMicro(String(11 + 14 + 17 + 20)));
    await h.expectBooksBalanced();
  });

  it('sends the API key with every request of a withdrawal too, and reads headers, never whole blocks', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '30');
    const watcher = await caughtUpWatcher();
    h.tron.traffic.reset();
    const w = await h.approvedWithdrawal({ userId: user.id, amount: '20', fee: '1', to: CAROL });
    await watcher.runOnce();
    h.tron.mine(1);
    await watcher.runOnce();
    h.solidify();
    await watcher.runOnce();
    expect((await h.prisma.withdrawal.findUniqueOrThrow({ where: { id: w.id } })).status).toBe('confirmed');
    const report = h.tron.traffic.report();
    expect(report.byPath).toMatchObject({
      '/wallet/getblock': 1,
      '/wallet/broadcasttransaction': 1,
      '/walletsolidity/gettransactioninfobyid': 1,
    });
    expect(Object.keys(report.byPath).filter((path) => path.endsWith('/getnowblock'))).toEqual([]);
    expect(report).toMatchObject({ withoutApiKey: 0, byKey: { [API_KEY]: report.total } });
    await h.expectBooksBalanced();
  });

  it.each([429, 403] as const)(
    'on %i sends nothing until the wait the node named is over, then credits everything once',
    async (status) => {
      const bob = await h.createUser();
      const watcher = await caughtUpWatcher({ intervalMs: 20 });
      warnings.length = 0;
      h.tron.traffic.reset();
      // 10 requests a second for this key: the 20 blocks to read run into it over and over.
      h.tron.traffic.setQuota({ requests: 10, windowMs: 1000, status });
      h.tron.send({ to: bob.address, amount: '20' });
      h.tron.mine(1);
      h.solidify();
      await expect
        .poll(async () => (await h.deposits(bob.id))[0]?.status, { timeout: 20_000, interval: 100 })
        .toBe('credited');
      await watcher.stop();
      const entries = [...h.tron.traffic.entries()];
      const refusals = entries.filter((entry) => entry.status === status);
      expect(refusals.length).toBeGreaterThan(0);
      for (const refusal of refusals) {
        const next = entries[entries.indexOf(refusal) + 1] as TrafficEntry | undefined;
        if (next) expect(next.at).toBeGreaterThanOrEqual(refusal.at + refusal.waitS! * 1000);
      }
      // Each wait is logged once, however many passes it holds back.
      expect(warnings.filter((text) => text.includes('request budget'))).toHaveLength(refusals.length);
      expect(await h.mainBalance(bob.id)).toBe(toMicro('20'));
      expect(await h.prisma.notification.count({ where: { userId: bob.id } })).toBe(1);
      await h.expectBooksBalanced();
    },
  );

  it('catches up after downtime in bounded batches, reading each block once', async () => {
    const dora = await h.createUser();
    const watcher = await caughtUpWatcher({ batchBlocks: 25 });
    h.tron.send({ to: dora.address, amount: '30' });
    h.tron.mine(1);
    h.tron.send({ to: dora.address, amount: '40' });
    h.tron.mine(150); // down for 151 blocks
    h.tron.traffic.reset();
    const behind = h.tron.chain.solidNumber - (await decidedCursor());
    const passes: Array<{ requests: number; advanced: number }> = [];
    while ((await decidedCursor()) < h.tron.chain.solidNumber) {
      const [before, from] = [h.tron.traffic.report().total, await decidedCursor()];
      await watcher.runOnce();
      passes.push({
        requests: h.tron.traffic.report().total - before,
        advanced: (await decidedCursor()) - from,
      });
    }
    expect(passes).toHaveLength(Math.ceil(behind / 25));
    for (const pass of passes) {
      expect(pass.advanced).toBeLessThanOrEqual(25);
      expect(pass.requests).toBeLessThanOrEqual(1 + 25 + 25);
    }
    // The backlog read once at the solidified view, the unsolidified blocks once at the head.
    const report = h.tron.traffic.report();
    expect(report.byPath['/walletsolidity/gettransactioninfobyblocknum']).toBe(behind);
    expect(report.byPath['/wallet/gettransactioninfobyblocknum']).toBeLessThanOrEqual(
      h.tron.chain.solidityLag,
    );
    expect((await h.deposits(dora.id)).map((d) => d.status)).toEqual(['credited', 'credited']);
    expect(await h.mainBalance(dora.id)).toBe(toMicro('70'));
    await h.expectBooksBalanced();
  });
});
