import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWalletCli } from '../src/cli/wallet-commands';
import { createTestApp, type TestApp } from './support/test-app';
import {
  balanceOf,
  bookDeposit,
  expectBooksIntact,
  moneySnapshot,
  WITHDRAW_ADDRESS,
  walletEnv,
} from './support/wallet-fixtures';

/**
 * Money under pressure: many concurrent requests against one balance, operators deciding the same
 * withdrawal at once, and the operator CLI. The books' invariants are checked after each scenario.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(walletEnv());
}, 60_000);

afterAll(async () => {
  await t?.close();
});

let nextUser = 0;
const newUser = async () => {
  const user = await t.createUser({ username: `m${++nextUser}_${Date.now() % 100000}` });
  return { user, headers: await t.authHeader(user) };
};

const post = (who: { headers: Record<string, string> }, url: string) =>
  t.app.inject({ method: 'POST', url, headers: who.headers });

const withAddress = async (usdt: string) => {
  const who = await newUser();
  await bookDeposit(t.prisma, who.user, usdt);
  expect((await post(who, `/wallet/add_withdraw_address?address=${WITHDRAW_ADDRESS}`)).statusCode).toBe(200);
  return who;
};

const tally = (codes: number[]) => ({
  ok: codes.filter((c) => c === 200).length,
  refused: codes.filter((c) => c === 422).length,
});

describe('concurrent money moves against one balance', () => {
  it('50 concurrent withdrawals: exactly floor(balance / amount) are held, the rest INSUFFICIENT_FUNDS', async () => {
    const a = await withAddress('500');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => post(a, '/wallet/withdraw_money?summ=11')),
    );
    expect(tally(answers.map((r) => r.statusCode))).toEqual({ ok: 45, refused: 5 });
    for (const r of answers.filter((x) => x.statusCode === 422))
      expect(r.json().code).toBe('INSUFFICIENT_FUNDS');
    expect(await balanceOf(t.prisma, a.user, 'main')).toBe(5_000_000n);
    expect(await t.prisma.withdrawal.count({ where: { userId: a.user.id } })).toBe(45);
    const wallet = await post(a, '/wallet?limit=100');
    expect(wallet.json().balances).toEqual({ main: '5', fee: '0', held: '495' });
    expect(wallet.json().pendingWithdrawals).toHaveLength(45);
    await expectBooksIntact(t.prisma);
  });

  it('50 concurrent transfers: exactly floor(balance / amount) arrive, the rest INSUFFICIENT_FUNDS', async () => {
    const a = await newUser();
    const b = await newUser();
    await bookDeposit(t.prisma, a.user, '100');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => post(a, `/wallet/inner_transaction?summ=3&to_user=${b.user.uid}`)),
    );
    expect(tally(answers.map((r) => r.statusCode))).toEqual({ ok: 33, refused: 17 });
    expect(await balanceOf(t.prisma, a.user, 'main')).toBe(1_000_000n);
    expect(await balanceOf(t.prisma, b.user, 'main')).toBe(99_000_000n);
    await expectBooksIntact(t.prisma);
  });

  it('transfers both ways and top-ups at once never lose or create money', async () => {
    const a = await newUser();
    const b = await newUser();
    await bookDeposit(t.prisma, a.user, '60');
    await bookDeposit(t.prisma, b.user, '60');
    const calls = Array.from({ length: 40 }, (_, i) => {
      if (i % 4 === 0) return post(a, '/wallet/add_money?summ=2');
      if (i % 4 === 1) return post(b, '/wallet/add_money?summ=2');
      return i % 2 === 0
        ? post(a, `/wallet/inner_transaction?summ=5&to_user=${b.user.uid}`)
        : post(b, `/wallet/inner_transaction?summ=5&to_user=${a.user.uid}`);
    });
    const codes = (await Promise.all(calls)).map((r) => r.statusCode);
    expect(codes.every((c) => c === 200 || c === 422)).toBe(true);
    const total =
      (await balanceOf(t.prisma, a.user, 'main')) +
      (await balanceOf(t.prisma, a.user, 'fee')) +
      (await balanceOf(t.prisma, b.user, 'main')) +
      (await balanceOf(t.prisma, b.user, 'fee'));
    expect(total).toBe(120_000_000n);
    await expectBooksIntact(t.prisma);
  });
});

describe('operator decisions', () => {
  const io = () => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
  };

  it('lists, approves and rejects pending withdrawals through the CLI; the rejection refunds and notifies', async () => {
    const a = await withAddress('100');
    // The day's allowance is 20: the first 15 goes alone, the rest waits for an operator.
    const small = (await post(a, '/wallet/withdraw_money?summ=15')).json().withdrawal;
    const first = (await post(a, '/wallet/withdraw_money?summ=30')).json().withdrawal;
    const second = (await post(a, '/wallet/withdraw_money?summ=25')).json().withdrawal;
    expect([first.status, second.status, small.status]).toEqual(['pending', 'pending', 'approved']);

    const listed = io();
    expect(await runWalletCli(t.ctx, ['withdrawals', 'list'], listed.io, 'ops')).toBe(0);
    expect(listed.out.join('\n')).toContain(`#${first.id}`);
    expect(listed.out.join('\n')).toContain(`#${second.id}`);
    expect(listed.out.join('\n')).not.toContain(`#${small.id} `);

    const approved = io();
    expect(
      await runWalletCli(
        t.ctx,
        ['withdrawals', 'approve', first.id, '--operator', 'ann'],
        approved.io,
        'ops',
      ),
    ).toBe(0);
    expect(await t.prisma.withdrawal.findUniqueOrThrow({ where: { id: Number(first.id) } })).toMatchObject({
      status: 'approved',
      decidedBy: 'operator:ann',
    });

    const usage = io();
    expect(await runWalletCli(t.ctx, ['withdrawals', 'reject', second.id], usage.io, 'ops')).toBe(2);
    const rejected = io();
    expect(
      await runWalletCli(
        t.ctx,
        ['withdrawals', 'reject', second.id, '--reason', 'address on a sanctions list'],
        rejected.io,
        'ops',
      ),
    ).toBe(0);
    const row = await t.prisma.withdrawal.findUniqueOrThrow({ where: { id: Number(second.id) } });
    expect(row).toMatchObject({
      status: 'rejected',
      reason: 'address on a sanctions list',
      decidedBy: 'operator:ops',
    });
    expect(row.refundTransferId).not.toBeNull();
    expect(await balanceOf(t.prisma, a.user, 'main')).toBe(55_000_000n);
    expect(
      await t.prisma.notification.findMany({ where: { userId: a.user.id, kind: 'withdrawal_rejected' } }),
    ).toEqual([
      expect.objectContaining({
        kind: 'withdrawal_rejected',
        data: { withdrawalId: row.id, amount: '25', reason: 'address on a sanctions list' },
      }),
    ]);

    // Anything not pending is refused and changes nothing.
    const before = await moneySnapshot(t.prisma);
    for (const [command, id] of [
      ['approve', second.id],
      ['reject', first.id],
      ['approve', small.id],
    ] as const) {
      const refused = io();
      expect(
        await runWalletCli(t.ctx, ['withdrawals', command, id, '--reason', 'late'], refused.io, 'ops'),
      ).toBe(1);
      expect(refused.err[0]).toContain('WITHDRAWAL_NOT_PENDING');
    }
    const missing = io();
    expect(await runWalletCli(t.ctx, ['withdrawals', 'approve', '999999'], missing.io, 'ops')).toBe(1);
    expect(await moneySnapshot(t.prisma)).toEqual(before);
    await expectBooksIntact(t.prisma);
  });

  it('decides a withdrawal once when operators approve and reject it at the same moment', async () => {
    const a = await withAddress('400');
    for (let round = 0; round < 3; round++) {
      const w = (await post(a, '/wallet/withdraw_money?summ=50')).json().withdrawal;
      const attempts = Array.from({ length: 10 }, (_, i) =>
        runWalletCli(
          t.ctx,
          i % 2 === 0
            ? ['withdrawals', 'approve', w.id]
            : ['withdrawals', 'reject', w.id, '--reason', `race ${i}`],
          { out: () => {}, err: () => {} },
          `op${i}`,
        ),
      );
      const codes = await Promise.all(attempts);
      expect(codes.filter((c) => c === 0)).toHaveLength(1);
      expect(codes.filter((c) => c === 1)).toHaveLength(9);
      const row = await t.prisma.withdrawal.findUniqueOrThrow({ where: { id: Number(w.id) } });
      expect(['approved', 'rejected']).toContain(row.status);
      // A rejection refunds exactly once; an approval keeps the amount held.
      const refunds = await t.prisma.ledgerTransfer.count({
        where: { idempotencyKey: `withdrawal:${w.id}:refund` },
      });
      expect(refunds).toBe(row.status === 'rejected' ? 1 : 0);
    }
    await expectBooksIntact(t.prisma);
  });
});
