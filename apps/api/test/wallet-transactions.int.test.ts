import type { Transaction } from '@gridbot/contracts';
import {
  ensureAccount,
  ensureUserAccounts,
  SYSTEM_ACCOUNTS,
  toMicro,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';
import { creditBelowMinimum, getWalletOverview, rejectWithdrawal } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';
import { bookDeposit, expectBooksIntact, WITHDRAW_ADDRESS, walletEnv } from './support/wallet-fixtures';

/**
 * The transaction list after a scenario that produces every kind of line: a credited deposit, one
 * still pending and one under the minimum, a fee top-up, transfers both ways, a withdrawal that was
 * rejected (hold and refund), one approved, trading fees and a licence purchase.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(walletEnv());
}, 60_000);

afterAll(async () => {
  await t?.close();
});

type Line = Pick<
  Transaction,
  'type' | 'status' | 'balance' | 'amount' | 'networkFee' | 'address' | 'counterparty' | 'note'
>;
const pick = (line: Transaction): Line => ({
  type: line.type,
  status: line.status,
  balance: line.balance,
  amount: line.amount,
  networkFee: line.networkFee,
  address: line.address,
  counterparty: line.counterparty,
  note: line.note,
});

describe('the transaction list', () => {
  it('shows every type with its status, sign, sub-balance and what explains it, newest first, paged', async () => {
    const aUser = await t.createUser({ username: 'list_ann' });
    const bUser = await t.createUser({ username: 'list_bob' });
    const a = { headers: await t.authHeader(aUser) };
    const b = { headers: await t.authHeader(bUser) };
    const post = (who: { headers: Record<string, string> }, url: string) =>
      t.app.inject({ method: 'POST', url, headers: who.headers });

    const credited = await bookDeposit(t.prisma, aUser, '100');
    await bookDeposit(t.prisma, aUser, '20', 'pending');
    await bookDeposit(t.prisma, aUser, '5', 'not_credited');
    await bookDeposit(t.prisma, bUser, '10');
    // A deposit seen 40 days ago: outside the default window.
    const old = await bookDeposit(t.prisma, aUser, '50', 'pending');
    await t.prisma.chainDeposit.update({
      where: { id: old.id },
      data: { createdAt: new Date(Date.now() - 40 * 86_400_000) },
    });
    expect((await post(a, '/wallet/add_money?summ=10')).statusCode).toBe(200);
    expect((await post(a, `/wallet/inner_transaction?summ=7&to_user=${bUser.uid}`)).statusCode).toBe(200);
    expect((await post(b, `/wallet/inner_transaction?summ=3&to_user=${aUser.uid}`)).statusCode).toBe(200);
    expect((await post(a, `/wallet/add_withdraw_address?address=${WITHDRAW_ADDRESS}`)).statusCode).toBe(200);
    const rejected = (await post(a, '/wallet/withdraw_money?summ=30')).json().withdrawal;
    expect(rejected.status).toBe('pending');
    await rejectWithdrawal(t.ctx, {
      withdrawalId: Number(rejected.id),
      operator: 'operator:test',
      reason: 'test',
    });
    const approved = (await post(a, '/wallet/withdraw_money?summ=12')).json().withdrawal;
    expect(approved.status).toBe('approved');
    // Trading fees as the engine books them (memo { coin, lotId }); a malformed memo still lists.
    await ensureAccount(t.prisma, SYSTEM_ACCOUNTS.fees);
    await ensureAccount(t.prisma, SYSTEM_ACCOUNTS.house);
    const fee = (key: string, usdt: string, memo: object) =>
      transfer(t.prisma, {
        idempotencyKey: key,
        type: 'trade_fee',
        memo: memo as never,
        legs: [
          { account: userAccountCode(aUser.id, 'fee'), amount: -toMicro(usdt) },
          { account: SYSTEM_ACCOUNTS.fees, amount: toMicro(usdt) },
        ],
      });
    await fee(`trade_fee:lot:${aUser.id}:1`, '0.5', { coin: 'XRP', lotId: 1 });
    await fee(`trade_fee:lot:${aUser.id}:2`, '12', { coin: 42, lotId: 2 });
    await transfer(t.prisma, {
      idempotencyKey: `licence:${aUser.id}:1`,
      type: 'license_purchase',
      memo: { level: 'PRO1' },
      legs: [
        { account: userAccountCode(aUser.id, 'main'), amount: -toMicro('20') },
        { account: SYSTEM_ACCOUNTS.house, amount: toMicro('20') },
      ],
    });

    const screen = await post(a, '/wallet?limit=100');
    expect(screen.statusCode).toBe(200);
    const wallet = screen.json();
    // 100 + 3 − 10 − 7 − 30 + 30 − 12 − 20 = 54 on main; fee 10 − 0.5 − 12 = −2.5; 12 held.
    expect(wallet.balances).toEqual({ main: '54', fee: '-2.5', held: '12' });
    expect(wallet.pendingWithdrawals.map((w: { id: string }) => w.id)).toEqual([approved.id]);
    const items: Transaction[] = wallet.transactions.items;
    const bob = { uid: bUser.uid, username: 'list_bob' };
    // Whom one sent money to is shown masked, as the recipient lookup showed it (docs/wallet.md#internal-transfer).
    const bobMasked = { uid: bUser.uid, username: 'li…ob' };
    const base = { networkFee: null, address: null, counterparty: null, note: null };
    expect(items.map(pick)).toEqual(
      expect.arrayContaining([
        {
          ...base,
          type: 'license_purchase',
          status: 'confirmed',
          balance: 'main',
          amount: '-20',
          note: 'PRO1',
        },
        { ...base, type: 'trade_fee', status: 'confirmed', balance: 'fee', amount: '-12' },
        { ...base, type: 'trade_fee', status: 'confirmed', balance: 'fee', amount: '-0.5', note: 'XRP' },
        {
          ...base,
          type: 'withdraw',
          status: 'approved',
          balance: 'main',
          amount: '-12',
          networkFee: '1',
          address: WITHDRAW_ADDRESS,
        },
        {
          ...base,
          type: 'withdraw',
          status: 'rejected',
          balance: 'main',
          amount: '30',
          networkFee: '1',
          address: WITHDRAW_ADDRESS,
        },
        {
          ...base,
          type: 'withdraw',
          status: 'rejected',
          balance: 'main',
          amount: '-30',
          networkFee: '1',
          address: WITHDRAW_ADDRESS,
        },
        {
          ...base,
          type: 'transfer_in',
          status: 'confirmed',
          balance: 'main',
          amount: '3',
          counterparty: bob,
        },
        {
          ...base,
          type: 'transfer_out',
          status: 'confirmed',
          balance: 'main',
          amount: '-7',
          counterparty: bobMasked,
        },
        { ...base, type: 'deposit_balance', status: 'confirmed', balance: 'fee', amount: '10' },
        {
          ...base,
          type: 'deposit',
          status: 'not_credited',
          balance: 'main',
          amount: '5',
          address: credited.fromAddress,
        },
        {
          ...base,
          type: 'deposit',
          status: 'pending',
          balance: 'main',
          amount: '20',
          address: credited.fromAddress,
        },
        {
          ...base,
          type: 'deposit',
          status: 'credited',
          balance: 'main',
          amount: '100',
          address: credited.fromAddress,
        },
      ]),
    );
    expect(items).toHaveLength(12);
    expect(wallet.transactions).toMatchObject({ page: 1, limit: 100, total: 12, hasMore: false });
    expect(items.find((l) => l.status === 'credited')?.txid).toBe(credited.txid);
    const times = items.map((l) => Date.parse(l.createdAt));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(new Set(items.map((l) => l.id)).size).toBe(12);
    expect(items[0]?.type).toBe('license_purchase');

    // Pages of 5 cover the same lines once; a type filter, and a wider window that reaches the old deposit.
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const p = await getWalletOverview(t.ctx, { userId: aUser.id, days: 30, page, limit: 5 });
      expect(p.transactions).toMatchObject({ page, limit: 5, total: 12, hasMore: page < 3 });
      pages.push(...p.transactions.items.map((l) => l.id));
    }
    expect(pages).toEqual(items.map((l) => l.id));
    const withdrawals = await getWalletOverview(t.ctx, {
      userId: aUser.id,
      days: 30,
      page: 1,
      limit: 10,
      type: 'withdraw',
    });
    expect(withdrawals.transactions.items.map((l) => l.amount)).toEqual(['-12', '30', '-30']);
    const transfersIn = await getWalletOverview(t.ctx, {
      userId: aUser.id,
      days: 30,
      page: 1,
      limit: 10,
      type: 'transfer_in',
    });
    expect(transfersIn.transactions.total).toBe(1);
    const wide = await getWalletOverview(t.ctx, { userId: aUser.id, days: 60, page: 1, limit: 100 });
    expect(wide.transactions.total).toBe(13);
    const beyond = await getWalletOverview(t.ctx, { userId: aUser.id, days: 30, page: 9, limit: 10 });
    expect(beyond.transactions).toMatchObject({ items: [], total: 12, hasMore: false });

    // Bob's side of the same transfers.
    const bobs = await getWalletOverview(t.ctx, { userId: bUser.id, days: 30, page: 1, limit: 10 });
    const ann = { uid: aUser.uid, username: 'list_ann' };
    expect(bobs.transactions.items.map(pick)).toEqual([
      {
        ...base,
        type: 'transfer_out',
        status: 'confirmed',
        balance: 'main',
        amount: '-3',
        counterparty: { uid: aUser.uid, username: 'li…nn' },
      },
      { ...base, type: 'transfer_in', status: 'confirmed', balance: 'main', amount: '7', counterparty: ann },
      {
        ...base,
        type: 'deposit',
        status: 'credited',
        balance: 'main',
        amount: '10',
        address: credited.fromAddress,
      },
    ]);
    await expectBooksIntact(t.prisma);
  });

  it('says why a deposit under the minimum is not credited, and lists their credit together as one line', async () => {
    const user = await t.createUser({ username: 'list_small' });
    await bookDeposit(t.prisma, user, '5', 'not_credited');
    await bookDeposit(t.prisma, user, '4', 'not_credited');
    await bookDeposit(t.prisma, user, '3', 'pending');
    await bookDeposit(t.prisma, user, '25', 'pending');
    const list = async () =>
      (await getWalletOverview(t.ctx, { userId: user.id, days: 30, page: 1, limit: 10 })).transactions.items;
    const shown = (items: Transaction[]) =>
      items.map((l) => ({ status: l.status, amount: l.amount, reason: l.reason, txid: l.txid !== null }));
    expect(shown(await list())).toEqual([
      { status: 'pending', amount: '25', reason: null, txid: true },
      { status: 'pending', amount: '3', reason: 'below_minimum', txid: true },
      { status: 'not_credited', amount: '4', reason: 'below_minimum', txid: true },
      { status: 'not_credited', amount: '5', reason: 'below_minimum', txid: true },
    ]);

    // The watcher solidifies the 3: 5 + 4 + 3 reach 11, credited together.
    await t.prisma.chainDeposit.updateMany({
      where: { userId: user.id, amount: toMicro('3') },
      data: { status: 'not_credited' },
    });
    await ensureAccount(t.prisma, SYSTEM_ACCOUNTS.chainClearing);
    await ensureUserAccounts(t.prisma, user.id);
    await t.prisma.$transaction((tx) => creditBelowMinimum(t.ctx, tx, [user.id]));
    const items = await list();
    expect(shown(items)).toEqual([
      { status: 'credited', amount: '12', reason: 'below_minimum_combined', txid: false },
      { status: 'pending', amount: '25', reason: null, txid: true },
    ]);
    expect(items[0]).toMatchObject({ type: 'deposit', balance: 'main', address: null });
    const response = await t.app.inject({
      method: 'POST',
      url: '/wallet',
      headers: await t.authHeader(user),
    });
    expect(response.json().balances.main).toBe('12');
    await expectBooksIntact(t.prisma);
  });

  it('answers an empty wallet before anything happened', async () => {
    const user = await t.createUser({ username: 'list_empty' });
    const response = await t.app.inject({
      method: 'POST',
      url: '/wallet',
      headers: await t.authHeader(user),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      balances: { main: '0', fee: '0', held: '0' },
      network: 'TRC20',
      token: 'USDT',
      depositAddress: null,
      withdrawAddress: null,
      withdrawAddressUsableFrom: null,
      allowance: { limit: '20', used: '0', left: '20' },
      frozen: null,
      releaseDelayS: 120,
      minDeposit: '11',
      minWithdraw: '11',
      withdrawFee: '1',
      pendingWithdrawals: [],
      transactions: { items: [], page: 1, limit: 10, total: 0, hasMore: false, nextCursor: null },
    });
  });
});
