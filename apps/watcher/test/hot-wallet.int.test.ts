import { toMicro } from '@gridbot/ledger';
import { renderMetrics } from '@gridbot/metrics';
import { createReadiness } from '@gridbot/runtime';
import { ENERGY_TRANSFER_TO_EMPTY, ENERGY_TRANSFER_TO_HOLDER } from '@gridbot/sandbox';
import {
  checkHotWallet,
  getSystemSummary,
  getWalletOverview,
  processWithdrawals,
  type SignedTransaction,
  tronAddressOfPrivateKey,
} from '@gridbot/services';
import { createTestContext } from '@gridbot/services/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatcher } from '../src/start-watcher';
import { type ChainHarness, createChainHarness } from './support/chain-harness';

// Recipients outside the platform, each new to the chain, so "holds no USDT yet" is known.
const ERIN = tronAddressOfPrivateKey('4'.repeat(64));
const FRANK = tronAddressOfPrivateKey('5'.repeat(64));

let h: ChainHarness;
beforeAll(async () => {
  h = await createChainHarness({ hotUsdt: '100000', hotTrx: '10000' });
  h.tron.mine(30);
});
afterAll(async () => {
  await h.close();
});

const processAll = () => processWithdrawals(h.ctx, h.node, h.hot);
const withdrawal = (id: number) => h.prisma.withdrawal.findUniqueOrThrow({ where: { id } });
const alerts = (kind: string) => h.prisma.operatorAlert.findMany({ where: { kind }, orderBy: { id: 'asc' } });
const feeLimitOf = async (id: number) =>
  ((await withdrawal(id)).signedTx as unknown as SignedTransaction).raw_data.fee_limit as number;
/** Energy × 1.2 (TRON_FEE_LIMIT_MARGIN_PCT 20), rounded up, × 210 sun (the sandbox's getEnergyFee). */
const expectedFeeLimit = (energy: number) => Math.ceil((energy * 120) / 100) * 210;

const settle = async () => {
  h.tron.mine(1);
  h.solidify();
  await processAll();
};

describe("the hot wallet's network fees", () => {
  it('sets each transfer fee limit from the node energy estimate for its recipient, not a fixed 50 TRX', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '100');
    const first = await h.approvedWithdrawal({ userId: user.id, amount: '20', to: ERIN });
    expect(await processAll()).toMatchObject({ signed: 1, broadcast: 1 });
    // Erin holds no USDT yet: about twice the energy of a transfer to a holder.
    expect(await feeLimitOf(first.id)).toBe(expectedFeeLimit(ENERGY_TRANSFER_TO_EMPTY));
    await settle();
    const second = await h.approvedWithdrawal({ userId: user.id, amount: '20', to: ERIN });
    await processAll();
    expect(await feeLimitOf(second.id)).toBe(expectedFeeLimit(ENERGY_TRANSFER_TO_HOLDER));
    expect(await feeLimitOf(second.id)).not.toBe(50_000_000);
    await settle();
    expect(await withdrawal(second.id)).toMatchObject({ status: 'confirmed' });
    // What the chain burnt matches the model: 130,285 then 64,285 energy at 210 sun.
    const infos = await Promise.all(
      [first.id, second.id].map(async (id) => h.node.transactionInfo((await withdrawal(id)).txid!, true)),
    );
    expect(infos.map((i) => i?.receipt?.energy_usage_total)).toEqual([
      ENERGY_TRANSFER_TO_EMPTY,
      ENERGY_TRANSFER_TO_HOLDER,
    ]);
    await h.expectBooksBalanced();
  });

  it('pays from staked energy first: a wallet without TRX but with energy still sends', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '50');
    const trxBefore = h.tron.balances(h.hot.address).trx;
    // Staked energy and bandwidth (what staking TRX for them gives), no TRX to burn.
    h.tron.adjust({ address: h.hot.address, trx: '0', energyLimit: 1_000_000, netLimit: 10_000 });
    try {
      const w = await h.approvedWithdrawal({ userId: user.id, amount: '15', to: ERIN });
      expect(await processAll()).toMatchObject({ signed: 1, broadcast: 1 });
      await settle();
      const info = await h.node.transactionInfo((await withdrawal(w.id)).txid!, true);
      expect(info?.receipt).toMatchObject({ result: 'SUCCESS', energy_usage: ENERGY_TRANSFER_TO_HOLDER });
      expect(info?.fee).toBeUndefined();
      expect(h.tron.balances(h.hot.address).trx).toBe('0');
    } finally {
      h.tron.adjust({ address: h.hot.address, trx: trxBefore, energyLimit: 0, netLimit: 0 });
    }
  });
});

describe('a hot wallet that cannot pay', () => {
  it('keeps the withdrawal waiting with its reason, sends and burns nothing, alerts once, and sends it after a top-up', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '100');
    const hotBefore = h.tron.balances(h.hot.address);
    const waitingAlertsBefore = (await alerts('withdrawals_waiting')).length;
    h.tron.adjust({ address: h.hot.address, usdt: '10' });
    const w = await h.approvedWithdrawal({ userId: user.id, amount: '50', to: FRANK });

    expect(await processAll()).toMatchObject({ signed: 0, broadcast: 0 });
    expect(await processAll()).toMatchObject({ signed: 0, broadcast: 0 });
    expect(await withdrawal(w.id)).toMatchObject({
      status: 'approved',
      txid: null,
      waitingReason: 'hot_wallet_usdt',
    });
    expect(h.tron.chain.pendingCount).toBe(0);
    expect(h.tron.balances(h.hot.address).trx).toBe(hotBefore.trx);
    // The user reads why (the wallet screen's open withdrawals).
    const ctx = createTestContext({ prisma: h.prisma });
    const wallet = await getWalletOverview(ctx, { userId: user.id, days: 30, page: 1, limit: 10 });
    expect(wallet.pendingWithdrawals).toMatchObject([{ id: String(w.id), waitingReason: 'hot_wallet_usdt' }]);
    // One alert for the episode, however many passes see it; the low USDT alerted too.
    const waiting = await alerts('withdrawals_waiting');
    expect(waiting).toHaveLength(waitingAlertsBefore + 1);
    expect(waiting.at(-1)?.data).toMatchObject({
      address: h.hot.address,
      reason: 'hot_wallet_usdt',
      count: 1,
      amount: '49000000',
    });
    expect(
      (await alerts('hot_wallet_low')).filter((a) => (a.data as { asset: string }).asset === 'USDT'),
    ).toHaveLength(1);

    // USDT back, but no TRX for the energy: it still waits, now for TRX, in the same episode.
    h.tron.adjust({ address: h.hot.address, usdt: hotBefore.usdt, trx: '1' });
    await processAll();
    expect(await withdrawal(w.id)).toMatchObject({ txid: null, waitingReason: 'hot_wallet_trx' });
    expect(await alerts('withdrawals_waiting')).toHaveLength(waitingAlertsBefore + 1);
    expect((await alerts('hot_wallet_low')).map((a) => (a.data as { asset: string }).asset)).toContain('TRX');
    expect(h.tron.balances(h.hot.address).trx).toBe('1');

    // Topped up: it goes out by itself and the episode ends.
    h.tron.adjust({ address: h.hot.address, trx: hotBefore.trx });
    expect(await processAll()).toMatchObject({ signed: 1, broadcast: 1 });
    expect(await withdrawal(w.id)).toMatchObject({ status: 'broadcast', waitingReason: null });
    expect(await h.prisma.hotWalletStatus.findUnique({ where: { address: h.hot.address } })).toMatchObject({
      waitingSince: null,
      lowUsdtSince: null,
      lowTrxSince: null,
    });
    await settle();
    expect(await withdrawal(w.id)).toMatchObject({ status: 'confirmed' });
    expect(h.tron.balances(FRANK).usdt).toBe('49');

    // Dry again later: a new episode, a new alert.
    h.tron.adjust({ address: h.hot.address, usdt: '1' });
    const again = await h.approvedWithdrawal({ userId: user.id, amount: '20', to: FRANK });
    await processAll();
    expect(await withdrawal(again.id)).toMatchObject({ waitingReason: 'hot_wallet_usdt' });
    expect(await alerts('withdrawals_waiting')).toHaveLength(waitingAlertsBefore + 2);
    h.tron.adjust({ address: h.hot.address, usdt: hotBefore.usdt });
    await processAll();
    await settle();
    expect(await withdrawal(again.id)).toMatchObject({ status: 'confirmed', waitingReason: null });
    await h.expectBooksBalanced();
  });
});

describe('the hot wallet in the summary, /metrics and /readyz', () => {
  it('shows USDT, TRX, energy, bandwidth and the energy price as read, at most every HOT_WALLET_CHECK_MS', async () => {
    h.tron.adjust({ address: h.hot.address, energyLimit: 200_000 });
    await h.prisma.hotWalletStatus.deleteMany();
    const watcher = startWatcher({ ctx: h.ctx, nodeUrl: h.sandbox.url, hot: h.hot, intervalMs: 600_000 });
    try {
      await watcher.runOnce();
      const onChain = h.tron.balances(h.hot.address);
      // Part of the stake was used by an earlier withdrawal (it recovers over 24 hours).
      const energyLeft = onChain.energyLimit - onChain.energyUsed;
      expect(energyLeft).toBeGreaterThan(100_000);
      // Read moments ago: the next pass does not ask the node again.
      expect(await checkHotWallet(h.ctx, h.node, h.hot.address)).toBeUndefined();

      const summary = await getSystemSummary(createTestContext({ prisma: h.prisma }));
      expect(summary.hotWallet).toMatchObject({
        address: h.hot.address,
        usdt: toMicro(onChain.usdt),
        trxSun: toMicro(onChain.trx),
        energyAvailable: BigInt(energyLeft),
        energyLimit: 200_000n,
        energyPriceSun: 210n,
      });
      expect(summary.hotWallet!.bandwidthAvailable).toBeGreaterThan(0n);

      const { body } = await renderMetrics();
      expect(body).toContain(
        `gridbot_hot_wallet_usdt_micro{address="${h.hot.address}"} ${toMicro(onChain.usdt)}`,
      );
      expect(body).toContain(`gridbot_hot_wallet_energy{address="${h.hot.address}"} ${energyLeft}`);
      expect(body).toContain('gridbot_tron_energy_price_sun 210');
      expect(body).toMatch(/gridbot_hot_wallet_trx_sun\{address="[^"]+"\} \d+/);
      expect(body).toMatch(/gridbot_hot_wallet_bandwidth\{address="[^"]+"\} \d+/);

      const report = await createReadiness([]).report();
      expect(report.detail?.hotWallet).toMatchObject({
        address: h.hot.address,
        usdt: onChain.usdt,
        trx: onChain.trx,
        energy: energyLeft,
        energyPriceSun: 210,
      });
    } finally {
      await watcher.stop();
      h.tron.adjust({ address: h.hot.address, energyLimit: 0 });
    }
    // Once stopped, the watcher's detail is gone from /readyz.
    expect((await createReadiness([]).report()).detail).toBeUndefined();
  });
});
