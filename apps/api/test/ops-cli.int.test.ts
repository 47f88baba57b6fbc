import type { User } from '@gridbot/db';
import { balanceOf, fromMicro, SYSTEM_ACCOUNTS, userAccountCode } from '@gridbot/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCli } from '../src/cli/ops-commands';
import { createTestApp, type TestApp } from './support/test-app';
import { bookDeposit, WITHDRAW_ADDRESS, walletEnv } from './support/wallet-fixtures';

/**
 * `npm run -s ops -- summary` (docs/operations.md#operator-cli): every figure it prints is checked
 * against the ledger and the tables it summarises, after real deposits and withdrawals.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(walletEnv());
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const io = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};

const coinBot = async (user: User, accountId: number, coin: string, fields: Record<string, unknown>) =>
  t.prisma.coinBot.create({
    data: {
      userId: user.id,
      exchangeAccountId: accountId,
      coin,
      symbol: `${coin}/USDT`,
      orderSize: '10',
      stepPct: '1',
      stepIncreasePct: '0.1',
      maxTrades: 3,
      ...fields,
    },
  });

describe('ops summary', () => {
  it('prints users, coin bots, ledger totals, withdrawals and the watcher cursor as the books hold them', async () => {
    // Two users with deposits; the second asks for 15 (approved) and 30 (beyond the day's allowance: pending).
    const a = await t.createUser({ username: 'ops_a' });
    const b = await t.createUser({ username: 'ops_b' });
    await bookDeposit(t.prisma, a, '100');
    await bookDeposit(t.prisma, b, '60.25');
    const headers = await t.authHeader(b);
    const post = (url: string) => t.app.inject({ method: 'POST', url, headers });
    expect((await post(`/wallet/add_withdraw_address?address=${WITHDRAW_ADDRESS}`)).statusCode).toBe(200);
    expect((await post('/wallet/withdraw_money?summ=15')).json().withdrawal.status).toBe('approved');
    expect((await post('/wallet/withdraw_money?summ=30')).json().withdrawal.status).toBe('pending');

    // Coin bots: two running (one of them dry), one paused, one removed (not counted).
    const account = await t.prisma.exchangeAccount.create({
      data: {
        userId: a.id,
        exchange: 'binance',
        mode: 'sandbox',
        apiKey: 'ops-test-key',
        secretCipher: Buffer.from('x'),
        secretIv: Buffer.from('y'),
        keyId: 'k1',
      },
    });
    await coinBot(a, account.id, 'XRP', { running: true });
    await coinBot(a, account.id, 'ADA', { running: true, dry: true });
    await coinBot(a, account.id, 'ETH', { running: false });
    await coinBot(a, account.id, 'DOT', { running: false, deletedAt: new Date(), removalId: 999 });
    await t.prisma.chainCursor.createMany({
      data: [
        { name: 'trc20_deposits', blockNumber: 81_234_567n },
        { name: 'trc20_deposits_seen', blockNumber: 81_234_590n },
      ],
    });

    const json = io();
    expect(await runOpsCli(t.ctx, ['summary', '--json'], json.io)).toBe(0);
    const summary = JSON.parse(json.out.join('\n'));

    const users = await t.prisma.user.findMany({ select: { id: true } });
    const sumOf = async (sub: 'main' | 'fee') => {
      let total = 0n;
      for (const user of users) {
        total += await balanceOf(t.prisma, userAccountCode(user.id, sub)).catch(() => 0n);
      }
      return fromMicro(total);
    };
    expect(summary.users).toBe(users.length);
    expect(summary.coinBots).toEqual({ running: 2, paused: 1, dry: 1 });
    // 100 + 60.25 − 30 − 15 held for the withdrawals.
    expect(summary.ledger.usersMain).toBe('115.25');
    expect(summary.ledger.usersMain).toBe(await sumOf('main'));
    expect(summary.ledger.usersFee).toBe(await sumOf('fee'));
    for (const code of [SYSTEM_ACCOUNTS.chainClearing, SYSTEM_ACCOUNTS.withdrawalsHeld]) {
      expect(summary.ledger.system[code]).toBe(fromMicro(await balanceOf(t.prisma, code)));
    }
    expect(summary.ledger.system[SYSTEM_ACCOUNTS.withdrawalsHeld]).toBe('45');
    expect(summary.ledger.invariants).toEqual({ ok: true, totalSum: '0', mismatches: 0 });
    expect(summary.withdrawals).toEqual({
      pending: { count: 1, amount: '30' },
      inFlight: { count: 1, amount: '15' },
      waiting: { count: 0, amount: '0' },
    });
    expect(summary.watcher).toEqual({ decidedUpTo: '81234567', seenUpTo: '81234590' });
    expect(summary.queueKind).toBe('in-process');
    expect(summary.queues.map((q: { queue: string }) => q.queue)).toContain('grid.reconcile.v1');

    const text = io();
    expect(await runOpsCli(t.ctx, ['summary'], text.io)).toBe(0);
    const printed = text.out.join('\n');
    expect(printed).toContain('coin bots     2 running, 1 paused, 1 dry');
    expect(printed).toContain('users main 115.25 USDT');
    expect(printed).toContain('invariants    ok');
    expect(printed).toContain('1 pending (30 USDT), 1 on their way (15 USDT)');
    expect(printed).toContain('deposits decided up to block 81234567, seen up to 81234590');
    expect(printed).toContain('hot wallet    not read yet');
    expect(summary.hotWallet).toBeNull();
  });

  it('answers anything else with its usage and exit code 2', async () => {
    const out = io();
    expect(await runOpsCli(t.ctx, ['sumary'], out.io)).toBe(2);
    expect(out.err.join('\n')).toContain('usage: npm run -s ops -- <command>');
  });
});
