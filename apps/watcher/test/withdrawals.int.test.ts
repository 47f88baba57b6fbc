import { SYSTEM_ACCOUNTS, toMicro } from '@gridbot/ledger';
import {
  createTronNodeClient,
  freezeWithdrawals,
  processWithdrawals,
  requestNoticeKey,
  type SignedTransaction,
} from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainHarness, createChainHarness } from './support/chain-harness';

// Recipients outside the platform (the users' own wallets).
const CAROL = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const DAVE = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';

let h: ChainHarness;
beforeAll(async () => {
  h = await createChainHarness({ hotUsdt: '100000' });
  h.tron.mine(30);
});
afterAll(async () => {
  await h.close();
});

const processAll = (options: Parameters<typeof processWithdrawals>[3] = {}) =>
  processWithdrawals(h.ctx, h.node, h.hot, options);
const withdrawal = (id: number) => h.prisma.withdrawal.findUniqueOrThrow({ where: { id } });
const onChain = (address: string) => h.tron.balances(address).usdt;
const systemBalance = async (code: string) =>
  (await h.prisma.ledgerAccount.findUniqueOrThrow({ where: { code } })).balance;

describe('withdrawals through the sandbox TRON node', () => {
  it('signs, stores, broadcasts, and settles an approved withdrawal once solidified', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '100');
    const w = await h.approvedWithdrawal({ userId: user.id, amount: '50', fee: '1', to: CAROL });
    const hotBefore = onChain(h.hot.address);
    const clearingBefore = await systemBalance(SYSTEM_ACCOUNTS.chainClearing);

    expect(await processAll()).toMatchObject({ signed: 1, broadcast: 1 });
    const sent = await withdrawal(w.id);
    expect(sent.status).toBe('broadcast');
    expect(sent.txid).toBe((sent.signedTx as unknown as SignedTransaction).txID);
    expect(sent.broadcastAt).not.toBeNull();

    h.tron.mine(1);
    expect(onChain(CAROL)).toBe('49');
    await processAll();
    expect((await withdrawal(w.id)).status).toBe('broadcast'); // not solidified yet

    h.solidify();
    expect(await processAll()).toMatchObject({ confirmed: 1 });
    const done = await withdrawal(w.id);
    expect(done).toMatchObject({ status: 'confirmed', txid: sent.txid });
    expect(done.settleTransferId).not.toBeNull();
    expect(await h.mainBalance(user.id)).toBe(toMicro('50') - 1n);
    expect(await systemBalance(SYSTEM_ACCOUNTS.chainClearing)).toBe(clearingBefore + toMicro('49'));
    expect(Number(onChain(h.hot.address))).toBe(Number(hotBefore) - 49);
    const notes = await h.prisma.notification.findMany({
      where: { userId: user.id, kind: { not: 'withdrawal_requested' } },
    });
    expect(notes).toMatchObject([{ kind: 'withdrawal_sent' }]);
    await processAll();
    expect(onChain(CAROL)).toBe('49');
    await h.expectBooksBalanced();
  });

  it('sends exactly once when the watcher was killed between signing and broadcasting', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '30');
    const w = await h.approvedWithdrawal({ userId: user.id, amount: '20', fee: '1', to: DAVE });
    const hotBefore = Number(onChain(h.hot.address));

    // The first watcher stores the signed transaction and dies before sending it.
    expect(await processAll({ stopAfterSigning: true })).toMatchObject({ signed: 1 });
    const stored = await withdrawal(w.id);
    expect(stored).toMatchObject({ status: 'approved' });
    expect(stored.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(await h.node.transactionInfo(stored.txid!, false)).toBeUndefined();
    expect(h.tron.chain.pendingCount).toBe(0);

    // A restarted watcher sends the same bytes, never a second signature.
    const restarted = createTronNodeClient({ url: h.sandbox.url, usdtContract: h.env.USDT_CONTRACT });
    expect(await processWithdrawals(h.ctx, restarted, h.hot)).toMatchObject({ signed: 0, broadcast: 1 });
    expect((await withdrawal(w.id)).txid).toBe(stored.txid);
    h.tron.mine(1);
    h.solidify();
    await processWithdrawals(h.ctx, restarted, h.hot);
    await processWithdrawals(h.ctx, restarted, h.hot);
    expect(await withdrawal(w.id)).toMatchObject({ status: 'confirmed', txid: stored.txid });
    expect(onChain(DAVE)).toBe('19');
    expect(Number(onChain(h.hot.address))).toBe(hotBefore - 19);
    await h.expectBooksBalanced();
  });

  it('marks a withdrawal the node already has as broadcast (killed after sending, before recording)', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '30');
    const w = await h.approvedWithdrawal({ userId: user.id, amount: '15', fee: '1', to: DAVE });
    const daveBefore = Number(onChain(DAVE));
    await processAll({ stopAfterSigning: true });
    const stored = await withdrawal(w.id);
    // It went out, then the watcher died before writing `broadcast`.
    expect(await h.node.broadcast(stored.signedTx as unknown as SignedTransaction)).toEqual({
      accepted: true,
    });
    expect(await processAll()).toMatchObject({ broadcast: 1 });
    h.tron.mine(1);
    h.solidify();
    await processAll();
    expect(await withdrawal(w.id)).toMatchObject({ status: 'confirmed', txid: stored.txid });
    expect(Number(onChain(DAVE))).toBe(daveBefore + 14);
    await h.expectBooksBalanced();
  });

  it('refunds a withdrawal whose transaction fails on chain', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '300');
    const before = await h.mainBalance(user.id);
    const hotBefore = onChain(h.hot.address);
    const w = await h.approvedWithdrawal({ userId: user.id, amount: '200', fee: '1', to: CAROL });
    expect(await h.mainBalance(user.id)).toBe(before - toMicro('200'));
    expect(await processAll()).toMatchObject({ signed: 1, broadcast: 1 });
    // The hot wallet is emptied after the check and before the block: the token contract reverts.
    h.tron.adjust({ address: h.hot.address, usdt: '0' });
    h.tron.mine(1);
    h.tron.adjust({ address: h.hot.address, usdt: hotBefore });
    h.solidify();
    expect(await processAll()).toMatchObject({ failed: 1 });
    const failed = await withdrawal(w.id);
    expect(failed).toMatchObject({ status: 'failed', reason: 'failed on chain: REVERT' });
    expect(failed.refundTransferId).not.toBeNull();
    expect(await h.mainBalance(user.id)).toBe(before);
    expect(onChain(h.hot.address)).toBe(hotBefore);
    const notes = await h.prisma.notification.findMany({
      where: { userId: user.id, kind: { not: 'withdrawal_requested' } },
    });
    expect(notes).toMatchObject([{ kind: 'withdrawal_failed' }]);
    await h.expectBooksBalanced();
  });

  it('signs anew only once the stored transaction has expired before the solidified block and is nowhere', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '40');
    const w = await h.approvedWithdrawal({ userId: user.id, amount: '12', fee: '1', to: CAROL });
    const carolBefore = Number(onChain(CAROL));
    await processAll({ stopAfterSigning: true });
    const first = await withdrawal(w.id);
    // Down for 25 blocks (75 s of chain time): the node refuses the expired bytes, but the
    // solidified block is still older than their expiration, so they are kept.
    h.tron.mine(25);
    expect(await processAll()).toMatchObject({ broadcast: 0, resigned: 0 });
    expect((await withdrawal(w.id)).txid).toBe(first.txid);
    // Once the solidified block is past the expiration and no block holds it, it is signed anew.
    h.tron.mine(20);
    expect(await processAll()).toMatchObject({ resigned: 1 });
    expect(await processAll()).toMatchObject({ signed: 1, broadcast: 1 });
    const second = await withdrawal(w.id);
    expect(second.txid).not.toBe(first.txid);
    h.tron.mine(1);
    h.solidify();
    await processAll();
    expect(await withdrawal(w.id)).toMatchObject({ status: 'confirmed', txid: second.txid });
    expect(Number(onChain(CAROL))).toBe(carolBefore + 11);
    expect(await h.node.transactionInfo(first.txid!, false)).toBeUndefined();
    await h.expectBooksBalanced();
  });

  it('lets two watchers work at once: each withdrawal signed once, sent once', async () => {
    const users = await Promise.all(Array.from({ length: 4 }, () => h.createUser()));
    const ids: number[] = [];
    for (const user of users) {
      await h.fund(user.id, '100');
      for (let i = 0; i < 3; i += 1) {
        ids.push((await h.approvedWithdrawal({ userId: user.id, amount: '12', fee: '1', to: DAVE })).id);
      }
    }
    const daveBefore = Number(onChain(DAVE));
    const other = createTronNodeClient({ url: h.sandbox.url, usdtContract: h.env.USDT_CONTRACT });
    const runs = await Promise.all([processAll(), processWithdrawals(h.ctx, other, h.hot), processAll()]);
    expect(runs.reduce((sum, r) => sum + r.signed, 0)).toBe(12);
    h.tron.mine(1);
    h.solidify();
    await Promise.all([processAll(), processWithdrawals(h.ctx, other, h.hot)]);
    const rows = await h.prisma.withdrawal.findMany({ where: { id: { in: ids } } });
    expect(rows.every((r) => r.status === 'confirmed')).toBe(true);
    expect(new Set(rows.map((r) => r.txid)).size).toBe(12);
    expect(Number(onChain(DAVE))).toBe(daveBefore + 12 * 11);
    await h.expectBooksBalanced();
  });
});

describe('release: nothing leaves before the owner was told and the delay passed (docs/wallet.md#release)', () => {
  it('signs only after release_at and once the withdrawal_requested notice was sent', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '100');
    const later = new Date(Date.now() + 60_000);
    const waiting = await h.approvedWithdrawal({
      userId: user.id,
      amount: '20',
      to: CAROL,
      releaseAt: later,
    });
    const untold = await h.approvedWithdrawal({
      userId: user.id,
      amount: '20',
      to: CAROL,
      notice: 'pending',
    });
    expect(await processAll()).toMatchObject({ signed: 0, broadcast: 0 });
    expect(await withdrawal(waiting.id)).toMatchObject({ status: 'approved', txid: null });
    expect(await withdrawal(untold.id)).toMatchObject({ status: 'approved', txid: null });

    // The bot sends the notice: now it may go.
    await h.prisma.notification.update({
      where: { dedupeKey: requestNoticeKey(untold.id) },
      data: { status: 'sent', sentAt: new Date() },
    });
    expect(await processAll()).toMatchObject({ signed: 1, broadcast: 1 });
    expect((await withdrawal(untold.id)).status).toBe('broadcast');
    expect((await withdrawal(waiting.id)).status).toBe('approved');
    await h.prisma.withdrawal.update({
      where: { id: waiting.id },
      data: { releaseAt: new Date(Date.now() - 1) },
    });
    expect(await processAll()).toMatchObject({ signed: 1, broadcast: 1 });
  });

  it('sends to an operator, never to the chain, an automatic withdrawal whose notice cannot be delivered', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '100');
    const blocked = await h.approvedWithdrawal({
      userId: user.id,
      amount: '20',
      to: CAROL,
      notice: 'blocked',
    });
    const decided = await h.approvedWithdrawal({
      userId: user.id,
      amount: '15',
      to: CAROL,
      notice: 'failed',
      decidedBy: 'operator:ops',
    });
    expect(await processAll()).toMatchObject({ signed: 1, broadcast: 1 });
    expect(await withdrawal(blocked.id)).toMatchObject({
      status: 'pending',
      txid: null,
      decidedBy: null,
      reviewReason: "the owner's Telegram notice could not be delivered",
    });
    const alert = await h.prisma.operatorAlert.findUniqueOrThrow({
      where: { dedupeKey: `withdrawal_pending:${blocked.id}` },
    });
    expect(alert.data).toMatchObject({
      withdrawalId: blocked.id,
      reason: "the owner's Telegram notice could not be delivered",
    });
    // One an operator approved knowing it goes as decided.
    expect((await withdrawal(decided.id)).status).toBe('broadcast');
    await h.expectBooksBalanced();
  });
});

describe('a freeze against the watcher (docs/wallet.md#freeze)', () => {
  it('a signed transaction not yet broadcast is never broadcast after a freeze', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '100');
    const w = await h.approvedWithdrawal({ userId: user.id, amount: '40', to: DAVE });
    expect(await processAll({ stopAfterSigning: true })).toMatchObject({ signed: 1 });
    const signed = await withdrawal(w.id);
    expect(signed.txid).not.toBeNull();

    const frozen = await freezeWithdrawals(h.ctx, { userId: user.id, by: 'user:telegram:1' });
    expect(frozen).toMatchObject({ frozen: true, stopped: 1 });
    expect(await processAll()).toMatchObject({ signed: 0, broadcast: 0 });
    h.tron.mine(1);
    h.solidify();
    await processAll();
    expect(await h.node.transactionInfo(signed.txid!, false)).toBeUndefined();
    expect(await withdrawal(w.id)).toMatchObject({
      status: 'rejected',
      reason: 'stopped: withdrawals were frozen',
    });
    expect(await h.mainBalance(user.id)).toBe(toMicro('100') - 1n);
    await h.expectBooksBalanced();
  });

  it('racing a broadcast: each withdrawal is either sent and left alone, or stopped and never sent', async () => {
    const user = await h.createUser();
    await h.fund(user.id, '200');
    const ids: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      ids.push((await h.approvedWithdrawal({ userId: user.id, amount: '20', to: DAVE })).id);
    }
    expect(await processAll({ stopAfterSigning: true })).toMatchObject({ signed: 6 });
    const [, frozen] = await Promise.all([
      processAll(),
      freezeWithdrawals(h.ctx, { userId: user.id, by: 'user:app' }),
    ]);
    h.tron.mine(1);
    h.solidify();
    await processAll();
    const rows = await h.prisma.withdrawal.findMany({ where: { id: { in: ids } } });
    let sent = 0;
    for (const row of rows) {
      const info = await h.node.transactionInfo(row.txid!, false);
      if (row.status === 'rejected') expect(info).toBeUndefined();
      else {
        expect(row.status).toBe('confirmed');
        expect(info).toBeDefined();
        sent += 1;
      }
    }
    expect(sent + frozen.stopped).toBe(6);
    expect(await h.mainBalance(user.id)).toBe(toMicro('200') - 1n - BigInt(sent) * toMicro('20'));
    await h.expectBooksBalanced();
  });
});
