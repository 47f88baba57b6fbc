import { toMicro } from '@gridbot/ledger';
import {
  changeWithdrawAddress,
  demoXpub,
  deriveDepositAddress,
  getFreeze,
  liftFreeze,
  recordPlatformAddress,
  saveWithdrawAddress,
  TRON_BLACK_HOLE,
} from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWalletCli } from '../src/cli/wallet-commands';
import { createTestApp, type TestApp } from './support/test-app';
import {
  balanceOf,
  bookDeposit,
  expectBooksIntact,
  moneySnapshot,
  USDT_CONTRACT_ADDRESS,
  WITHDRAW_ADDRESS,
} from './support/wallet-fixtures';

/**
 * Withdrawals a stolen session cannot empty (docs/wallet.md#protections): the rolling 24 h
 * allowance, the address lock, the freeze, and the addresses that can never be the user's
 * (docs/wallet.md#refused-addresses). A clock the test moves stands for the hours that pass.
 */

const HOUR = 3_600_000;
let now = new Date('2026-11-20T10:00:00.000Z');
const clock = { now: () => now };
const advance = (ms: number) => {
  now = new Date(now.getTime() + ms);
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp(
    { WALLET_XPUB: demoXpub(), WITHDRAW_AUTO_APPROVE_USDT: '100', WITHDRAW_ADDRESS_LOCK_HOURS: '24' },
    { clock },
  );
}, 60_000);
afterAll(async () => {
  await t?.close();
});

let nextUser = 0;
const newUser = async () => {
  const user = await t.createUser({ username: `p${++nextUser}_${Date.now() % 100000}` });
  return { user, headers: await t.authHeader(user) };
};
type Who = Awaited<ReturnType<typeof newUser>>;

const post = (who: Who, url: string) => t.app.inject({ method: 'POST', url, headers: who.headers });

/** A user with money and a withdrawal address already past its lock. */
const readyUser = async (usdt: string, address = WITHDRAW_ADDRESS) => {
  const who = await newUser();
  await bookDeposit(t.prisma, who.user, usdt);
  await saveWithdrawAddress(t.ctx, { userId: who.user.id, address });
  await t.prisma.wallet.update({
    where: { userId: who.user.id },
    data: { withdrawAddressUsableFrom: new Date(now.getTime() - HOUR) },
  });
  return who;
};

const withdrawals = (userId: number) =>
  t.prisma.withdrawal.findMany({ where: { userId }, orderBy: { id: 'asc' } });

describe('the rolling 24 h auto-approve allowance', () => {
  it('approves without an operator only while the day’s sum stays within it, also under 20 requests at once', async () => {
    const a = await readyUser('1000');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(a, '/wallet/withdraw_money?summ=15')),
    );
    expect(answers.every((r) => r.statusCode === 200)).toBe(true);
    const rows = await withdrawals(a.user.id);
    const approved = rows.filter((w) => w.status === 'approved');
    // 6 × 15 = 90 ≤ 100 < 105: whatever the order, never more than the allowance goes out alone.
    expect(approved).toHaveLength(6);
    expect(rows.filter((w) => w.status === 'pending')).toHaveLength(14);
    for (const w of approved) {
      expect(w).toMatchObject({ decidedBy: 'auto', reviewReason: null });
      expect(w.releaseAt?.getTime()).toBe(w.approvedAt!.getTime() + 120_000);
    }
    const pending = rows.filter((w) => w.status === 'pending');
    expect(pending.every((w) => w.reviewReason === 'over the 24 h allowance')).toBe(true);
    const alerts = await t.prisma.operatorAlert.findMany({
      where: { dedupeKey: { in: pending.map((w) => `withdrawal_pending:${w.id}`) } },
    });
    expect(alerts).toHaveLength(14);
    expect(alerts[0]?.data).toMatchObject({ uid: a.user.uid, reason: 'over the 24 h allowance' });
    // Each request's owner notice was written with it.
    const notices = await t.prisma.notification.findMany({
      where: { userId: a.user.id, kind: 'withdrawal_requested' },
    });
    expect(notices).toHaveLength(20);
    const screen = (await post(a, '/wallet')).json();
    expect(screen.allowance).toEqual({ limit: '100', used: '300', left: '0' });
    await expectBooksIntact(t.prisma);
  });

  it('is rolling: the thief’s 1,000 + 499 + 1,000 of the issue, and a day later the allowance is back', async () => {
    const a = await readyUser('3000');
    const first = (await post(a, '/wallet/withdraw_money?summ=60')).json().withdrawal;
    const second = (await post(a, '/wallet/withdraw_money?summ=40')).json().withdrawal;
    const third = (await post(a, '/wallet/withdraw_money?summ=11')).json().withdrawal;
    expect([first.status, second.status, third.status]).toEqual(['approved', 'approved', 'pending']);
    expect(third.reviewReason).toBe('over the 24 h allowance');
    const screen = (await post(a, '/wallet')).json();
    expect(screen.allowance).toEqual({ limit: '100', used: '111', left: '0' });
    // A rejected withdrawal gives its share back.
    await runWalletCli(
      t.ctx,
      ['withdrawals', 'reject', third.id, '--reason', 'test'],
      { out() {}, err() {} },
      'ops',
    );
    advance(24 * HOUR + 1000);
    const later = (await post(a, '/wallet/withdraw_money?summ=100')).json().withdrawal;
    expect(later.status).toBe('approved');
  });
});

describe('the address lock', () => {
  it('refuses a new address until the lock time has passed, says until when, and changes nothing', async () => {
    const a = await newUser();
    await bookDeposit(t.prisma, a.user, '50');
    const saved = await post(a, `/wallet/add_withdraw_address?address=${WITHDRAW_ADDRESS}`);
    expect(saved.statusCode).toBe(200);
    const usableFrom = new Date(now.getTime() + 24 * HOUR);
    expect(saved.json().usableFrom).toBe(usableFrom.toISOString());
    const notice = await t.prisma.notification.findFirstOrThrow({
      where: { userId: a.user.id, kind: 'withdraw_address_changed' },
    });
    expect(notice.data).toMatchObject({
      address: WITHDRAW_ADDRESS,
      target: 'address',
      usableFrom: usableFrom.toISOString(),
    });

    const before = await moneySnapshot(t.prisma);
    const refused = await post(a, '/wallet/withdraw_money?summ=20');
    expect(refused.statusCode).toBe(423);
    expect(refused.json()).toMatchObject({
      code: 'WITHDRAW_ADDRESS_LOCKED',
      until: usableFrom.toISOString(),
    });
    expect(refused.json().detail).toContain(`${usableFrom.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    expect(await moneySnapshot(t.prisma)).toEqual(before);
    expect((await post(a, '/wallet')).json().withdrawAddressUsableFrom).toBe(usableFrom.toISOString());

    advance(24 * HOUR);
    expect((await post(a, '/wallet/withdraw_money?summ=20')).statusCode).toBe(200);
    // A change locks again, the first address too.
    await changeWithdrawAddress(t.ctx, { userId: a.user.id, address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL' });
    expect((await post(a, '/wallet/withdraw_money?summ=20')).json().code).toBe('WITHDRAW_ADDRESS_LOCKED');
    expect(
      await t.prisma.notification.count({ where: { userId: a.user.id, kind: 'withdraw_address_changed' } }),
    ).toBe(2);
  });
});

describe('addresses that can never be the user’s', () => {
  const refusedCode = async (who: Who, address: string) => {
    const before = await moneySnapshot(t.prisma);
    const answer = await changeWithdrawAddress(t.ctx, { userId: who.user.id, address }).catch(
      (e: unknown) => e,
    );
    expect(await moneySnapshot(t.prisma)).toEqual(before);
    return (answer as { code?: string }).code;
  };

  it('refuses a contract (the USDT token), the black hole, the hot wallet and any deposit address, without saying whose', async () => {
    const a = await readyUser('50');
    const b = await readyUser('50');
    const hot = 'TXaMXTQgtdV6iqxtmQ7HNnqzXRoJKXfFAz';
    await recordPlatformAddress(t.prisma, { address: hot, role: 'hot' });
    expect(await refusedCode(a, USDT_CONTRACT_ADDRESS)).toBe('WITHDRAW_ADDRESS_CONTRACT');
    expect(await refusedCode(a, TRON_BLACK_HOLE)).toBe('WITHDRAW_ADDRESS_BLACK_HOLE');
    expect(await refusedCode(a, hot)).toBe('WITHDRAW_ADDRESS_PLATFORM');
    const other = deriveDepositAddress(demoXpub(), b.user.id);
    expect(await refusedCode(a, other)).toBe('WITHDRAW_ADDRESS_PLATFORM_DEPOSIT');
    expect(await refusedCode(a, deriveDepositAddress(demoXpub(), a.user.id))).toBe(
      'WITHDRAW_ADDRESS_IS_DEPOSIT',
    );

    const answer = await post(a, `/wallet/add_withdraw_address?address=${other}`);
    expect(answer.json()).toMatchObject({ status: 400, code: 'WITHDRAW_ADDRESS_PLATFORM_DEPOSIT' });
    const contract = await t.app.inject({
      method: 'POST',
      url: `/wallet/update_withdraw_address?address=${USDT_CONTRACT_ADDRESS}`,
      headers: { ...b.headers, 'accept-language': 'ru' },
    });
    expect(contract.statusCode).toBe(400);
    expect(contract.json().code).toBe('WITHDRAW_ADDRESS_CONTRACT');
    const c = await readyUser('1');
    const deposit = await t.app.inject({
      method: 'POST',
      url: `/wallet/update_withdraw_address?address=${deriveDepositAddress(demoXpub(), a.user.id)}`,
      headers: { ...c.headers },
    });
    expect(deposit.json()).toMatchObject({ code: 'WITHDRAW_ADDRESS_PLATFORM_DEPOSIT' });
    expect(deposit.body).not.toContain(String(a.user.uid));
    expect(deposit.json().detail).toContain('internal transfer');
  });

  it('refuses at withdrawal time an address saved before the rule, and the hot wallet moves no books', async () => {
    const a = await readyUser('50');
    await t.prisma.wallet.update({
      where: { userId: a.user.id },
      data: { withdrawAddress: USDT_CONTRACT_ADDRESS },
    });
    const before = await moneySnapshot(t.prisma);
    const answer = await post(a, '/wallet/withdraw_money?summ=20');
    expect(answer.json()).toMatchObject({ status: 400, code: 'WITHDRAW_ADDRESS_CONTRACT' });
    expect(await moneySnapshot(t.prisma)).toEqual(before);
  });

  it('answers 503 and saves nothing when the TRON node cannot tell', async () => {
    const down = await createTestApp({ WALLET_XPUB: demoXpub(), TRON_NODE_URL: 'http://127.0.0.1:9' });
    try {
      const user = await down.createUser({ username: 'nodedown' });
      const answer = await down.app.inject({
        method: 'POST',
        url: `/wallet/add_withdraw_address?address=${WITHDRAW_ADDRESS}`,
        headers: await down.authHeader(user),
      });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toMatchObject({ code: 'ADDRESS_CHECK_UNAVAILABLE' });
      expect(
        (await down.prisma.wallet.findUnique({ where: { userId: user.id } }))?.withdrawAddress ?? null,
      ).toBeNull();
    } finally {
      await down.close();
    }
  });
});

describe('the freeze', () => {
  it('stops every withdrawal not yet sent, refunds it exactly, and refuses withdrawals and address changes', async () => {
    const a = await readyUser('300');
    const approved = (await post(a, '/wallet/withdraw_money?summ=50')).json().withdrawal;
    const pending = (await post(a, '/wallet/withdraw_money?summ=200')).json().withdrawal;
    expect([approved.status, pending.status]).toEqual(['approved', 'pending']);
    expect(await balanceOf(t.prisma, a.user, 'main')).toBe(toMicro('50'));

    const frozen = await post(a, '/wallet/freeze');
    expect(frozen.statusCode).toBe(200);
    const liftableFrom = new Date(now.getTime() + 24 * HOUR).toISOString();
    expect(frozen.json()).toEqual({
      frozen: { since: now.toISOString(), liftableFrom },
      frozenNow: true,
      stopped: 2,
    });
    expect(await balanceOf(t.prisma, a.user, 'main')).toBe(toMicro('300'));
    const rows = await withdrawals(a.user.id);
    expect(rows.map((w) => [w.status, w.decidedBy])).toEqual([
      ['rejected', 'user:app'],
      ['rejected', 'user:app'],
    ]);
    expect(
      await t.prisma.notification.count({ where: { userId: a.user.id, kind: 'withdrawal_stopped' } }),
    ).toBe(2);
    await expectBooksIntact(t.prisma);

    const before = await moneySnapshot(t.prisma);
    const again = await post(a, '/wallet/withdraw_money?summ=20');
    expect(again.json()).toMatchObject({ status: 423, code: 'WITHDRAWALS_FROZEN', until: liftableFrom });
    const change = await changeWithdrawAddress(t.ctx, {
      userId: a.user.id,
      address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
    }).catch((e: unknown) => e);
    expect((change as { code: string }).code).toBe('WITHDRAWALS_FROZEN');
    expect(await moneySnapshot(t.prisma)).toEqual(before);
    const screen = (await post(a, '/wallet')).json();
    expect(screen.frozen).toEqual({ since: now.toISOString(), liftableFrom });

    advance(2000);
    const early = await post(a, '/wallet/unfreeze');
    expect(early.json()).toMatchObject({ status: 423, code: 'FREEZE_LIFT_TOO_EARLY', until: liftableFrom });
    advance(24 * HOUR);
    // The same calls a second later (each has its own per-user rate limit), through the services.
    await liftFreeze(t.ctx, { userId: a.user.id, by: 'user:app', asOperator: false });
    expect(await getFreeze(t.ctx, { userId: a.user.id })).toBeNull();
    const freezes = await t.prisma.walletFreeze.findMany({ where: { userId: a.user.id } });
    expect(freezes).toMatchObject([{ frozenBy: 'user:app', liftedBy: 'user:app' }]);
  });

  it('drops an address still locked (the thief’s), and an operator freezes and lifts from the CLI', async () => {
    const a = await readyUser('100');
    await changeWithdrawAddress(t.ctx, { userId: a.user.id, address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL' });
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    expect(await runWalletCli(t.ctx, ['freeze', String(a.user.uid)], io, 'ops')).toBe(0);
    expect(
      (await t.prisma.wallet.findUniqueOrThrow({ where: { userId: a.user.id } })).withdrawAddress,
    ).toBeNull();
    // A pending withdrawal of a frozen account cannot be approved (a race: written directly).
    const w = await t.prisma.withdrawal.findFirst({ where: { userId: a.user.id } });
    expect(w).toBeNull();
    expect(await runWalletCli(t.ctx, ['unfreeze', String(a.user.uid)], io, 'ops')).toBe(0);
    expect(lines.join('\n')).toContain('withdrawals frozen by operator:ops');
    expect(lines.join('\n')).toContain('lifted by operator:ops');
    expect(await t.prisma.walletFreeze.findFirst({ where: { userId: a.user.id } })).toMatchObject({
      frozenBy: 'operator:ops',
      liftedBy: 'operator:ops',
    });
  });

  it('an operator cannot approve a frozen account’s withdrawal', async () => {
    const a = await readyUser('500');
    const pending = (await post(a, '/wallet/withdraw_money?summ=200')).json().withdrawal;
    // The freeze row alone, as if it landed between the list and the decision.
    await t.prisma.walletFreeze.create({ data: { userId: a.user.id, frozenAt: now, frozenBy: 'test' } });
    const lines: string[] = [];
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
    expect(await runWalletCli(t.ctx, ['withdrawals', 'approve', pending.id], io, 'ops')).toBe(1);
    expect(lines.join('\n')).toContain('WITHDRAWALS_FROZEN');
    expect((await t.prisma.withdrawal.findUniqueOrThrow({ where: { id: Number(pending.id) } })).status).toBe(
      'pending',
    );
  });
});
