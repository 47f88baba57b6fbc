import { createTestDb } from '@gridbot/db/testing';
import { createInProcessQueue, reconcileCoinBotJob } from '@gridbot/jobs';
import {
  balanceOf,
  checkInvariants,
  ensureAccount,
  ensureUserAccounts,
  SYSTEM_ACCOUNTS,
  toMicro,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../../src/context/service-context';
import { fundWallet } from '../../src/demo/fund-wallet';
import { AppError } from '../../src/errors';
import { renewUserLicense, updateUserLicense } from '../../src/license/license-purchase';
import { grantLicense } from '../../src/license/user-license';
import { createTestContext } from '../../src/testing';

let db: Awaited<ReturnType<typeof createTestDb>>;
let ctx: ServiceContext;
let now = new Date('2026-03-10T12:00:00Z');
let seq = 0;

beforeAll(async () => {
  db = await createTestDb();
  ctx = createTestContext({ prisma: db.prisma, clock: { now: () => now } });
});
afterAll(async () => db.close());

const DAY = 86_400_000;

const newUser = async (sponsorId: number | null, registeredAt = new Date('2026-03-01T00:00:00Z')) => {
  seq += 1;
  return ctx.prisma.user.create({
    data: {
      telegramId: BigInt(800_000 + seq),
      username: `buyer_${seq}`,
      usernameKey: `buyer_${seq}`,
      firstName: 'B',
      referralCode: `buy${seq}`,
      sponsorId,
      createdAt: registeredAt,
    },
  });
};

let deposits = 0;
/** Money on a user's main balance, booked like a chain deposit. */
const deposit = async (userId: number, usdt: string) => {
  deposits += 1;
  await ensureAccount(ctx.prisma, SYSTEM_ACCOUNTS.chainClearing);
  await ensureUserAccounts(ctx.prisma, userId);
  await transfer(ctx.prisma, {
    idempotencyKey: `test-deposit:${deposits}`,
    type: 'deposit',
    legs: [
      { account: SYSTEM_ACCOUNTS.chainClearing, amount: -toMicro(usdt) },
      { account: userAccountCode(userId, 'main'), amount: toMicro(usdt) },
    ],
  });
};
const main = async (userId: number) => balanceOf(ctx.prisma, userAccountCode(userId, 'main')).catch(() => 0n);
const house = () => balanceOf(ctx.prisma, SYSTEM_ACCOUNTS.house).catch(() => 0n);
const expectBooksBalanced = async () => expect((await checkInvariants(ctx.prisma)).ok).toBe(true);
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => (error instanceof AppError ? error.code : error),
  );

/** A 4-level tree: root ← a ← b ← c (c buys). */
const tree = async () => {
  const root = await newUser(null);
  const a = await newUser(root.id);
  const b = await newUser(a.id);
  const c = await newUser(b.id);
  return { root, a, b, c };
};

describe('licence purchase', () => {
  it('buys PRO1 from FREE at full price for a year; the referral bonus goes up three lines to active paid licences only', async () => {
    const { root, a, b, c } = await tree();
    // b FREE within its 14 days (registered 9 days ago), a expired FREE (registered 20 days ago),
    // root PRO2: only root's licence is paid and active (docs/bonuses.md#who-earns).
    await ctx.prisma.user.update({
      where: { id: a.id },
      data: { createdAt: new Date('2026-02-18T00:00:00Z') },
    });
    await grantLicense(ctx, { userId: root.id, level: 'PRO2' });
    await fundWallet(ctx.prisma, { userId: c.id, deposit: '150', fee: '10', key: `fund-${c.id}` });
    const houseBefore = await house();

    const result = await updateUserLicense(ctx, { userId: c.id, level: 'pro1'.toUpperCase() });
    expect(result.charged).toBe('100');
    expect(result.license).toMatchObject({ level: 'PRO1', paid: true, expired: false });
    expect(result.license.activeUntil).toBe(new Date(now.getTime() + 365 * DAY).toISOString());
    expect(result.balances.main).toBe('40');
    expect(await main(b.id)).toBe(0n);
    expect(await main(a.id)).toBe(0n);
    expect(await main(root.id)).toBe(toMicro('5'));
    expect((await house()) - houseBefore).toBe(toMicro('95'));

    const rows = await ctx.prisma.referralBonus.findMany({
      orderBy: { line: 'asc' },
      where: { purchase: { userId: c.id } },
    });
    expect(rows.map((r) => [r.uplineId, r.line, r.amount, r.paid])).toEqual([
      [b.id, 1, toMicro('30'), false],
      [a.id, 2, toMicro('8'), false],
      [root.id, 3, toMicro('5'), true],
    ]);
    const payment = await ctx.prisma.ledgerTransfer.findUniqueOrThrow({
      where: { id: BigInt(result.transactionId) },
    });
    expect(payment.type).toBe('license_purchase');
    await expectBooksBalanced();
  });

  it('upgrades an unexpired paid licence for the price difference, expiry unchanged', async () => {
    const buyer = await newUser(null);
    await deposit(buyer.id, '1000');
    const first = await updateUserLicense(ctx, { userId: buyer.id, level: 'PRO1' });
    now = new Date(now.getTime() + 100 * DAY);
    const second = await updateUserLicense(ctx, { userId: buyer.id, level: 'PRO3' });
    expect(second.charged).toBe('500');
    expect(second.license.level).toBe('PRO3');
    expect(second.license.activeUntil).toBe(first.license.activeUntil);
    expect(await main(buyer.id)).toBe(toMicro('400'));
    // Same or lower level: refused, nothing changes.
    expect(await refusal(updateUserLicense(ctx, { userId: buyer.id, level: 'PRO3' }))).toBe(
      'LICENSE_NOT_UPGRADE',
    );
    expect(await refusal(updateUserLicense(ctx, { userId: buyer.id, level: 'PRO2' }))).toBe(
      'LICENSE_NOT_UPGRADE',
    );
    expect(await refusal(updateUserLicense(ctx, { userId: buyer.id, level: 'GOLD' }))).toBe(
      'LICENSE_LEVEL_UNKNOWN',
    );
    // Renewal is not open yet (more than 30 days left).
    expect(await refusal(renewUserLicense(ctx, { userId: buyer.id }))).toBe('LICENSE_RENEWAL_UNAVAILABLE');
    expect(await main(buyer.id)).toBe(toMicro('400'));
    await expectBooksBalanced();
  });

  it('refuses a purchase the main balance cannot pay and changes nothing', async () => {
    const poor = await newUser(null);
    expect(await refusal(updateUserLicense(ctx, { userId: poor.id, level: 'PRO1' }))).toBe(
      'INSUFFICIENT_FUNDS',
    );
    await deposit(poor.id, '99.999999');
    const transfersBefore = await ctx.prisma.ledgerTransfer.count();
    expect(await refusal(updateUserLicense(ctx, { userId: poor.id, level: 'PRO1' }))).toBe(
      'INSUFFICIENT_FUNDS',
    );
    expect(await ctx.prisma.ledgerTransfer.count()).toBe(transfersBefore);
    expect(await ctx.prisma.user.findUniqueOrThrow({ where: { id: poor.id } })).toMatchObject({
      licenseLevel: 'FREE',
      licenseActiveUntil: null,
    });
    expect(await ctx.prisma.licensePurchase.count({ where: { userId: poor.id } })).toBe(0);
    await expectBooksBalanced();
  });

  it('renews in the last 30 days at 20 % off from the end; once expired the level is bought again at full price', async () => {
    const sponsor = await newUser(null);
    await grantLicense(ctx, { userId: sponsor.id, level: 'PRO4' });
    const buyer = await newUser(sponsor.id);
    await deposit(buyer.id, '1000');
    const bought = await updateUserLicense(ctx, { userId: buyer.id, level: 'PRO2' });
    const end = new Date(bought.license.activeUntil);
    now = new Date(end.getTime() - 31 * DAY);
    expect(await refusal(renewUserLicense(ctx, { userId: buyer.id }))).toBe('LICENSE_RENEWAL_UNAVAILABLE');
    now = new Date(end.getTime() - 29 * DAY);
    await grantLicense(ctx, { userId: sponsor.id, level: 'PRO4' });
    const renewed = await renewUserLicense(ctx, { userId: buyer.id });
    expect(renewed.charged).toBe('240');
    expect(renewed.license.activeUntil).toBe(new Date(end.getTime() + 365 * DAY).toISOString());
    // The sponsor earns 30 % of the renewal payment too: 90 of the purchase + 72.
    expect(await main(sponsor.id)).toBe(toMicro('162'));
    // Once renewed, the window is closed: a second renewal is refused.
    expect(await refusal(renewUserLicense(ctx, { userId: buyer.id }))).toBe('LICENSE_RENEWAL_UNAVAILABLE');
    // Expired: no renewal (nothing moves), the level is bought again at the full price for a year
    // from now; FREE cannot be renewed.
    now = new Date(end.getTime() + 400 * DAY);
    const moneyBefore = await main(buyer.id);
    const transfersBefore = await ctx.prisma.ledgerTransfer.count();
    expect(await refusal(renewUserLicense(ctx, { userId: buyer.id }))).toBe('LICENSE_RENEWAL_EXPIRED');
    expect(await main(buyer.id)).toBe(moneyBefore);
    expect(await ctx.prisma.ledgerTransfer.count()).toBe(transfersBefore);
    const late = await updateUserLicense(ctx, { userId: buyer.id, level: 'PRO2' });
    expect(late.charged).toBe('300');
    expect(late.license.activeUntil).toBe(new Date(now.getTime() + 365 * DAY).toISOString());
    expect(late.license.expired).toBe(false);
    const free = await newUser(null);
    expect(await refusal(renewUserLicense(ctx, { userId: free.id }))).toBe('LICENSE_RENEWAL_UNAVAILABLE');
    await expectBooksBalanced();
  });

  it('pays once for a retried request with the same Idempotency-Key, also concurrently', async () => {
    const sponsor = await newUser(null);
    await grantLicense(ctx, { userId: sponsor.id, level: 'PRO1' });
    const buyer = await newUser(sponsor.id);
    await deposit(buyer.id, '500');
    const input = { userId: buyer.id, level: 'PRO1', idempotencyKey: 'retry-key-0001' };
    const results = await Promise.all([updateUserLicense(ctx, input), updateUserLicense(ctx, input)]);
    const again = await updateUserLicense(ctx, input);
    expect(new Set([...results, again].map((r) => r.transactionId)).size).toBe(1);
    expect(await main(buyer.id)).toBe(toMicro('400'));
    expect(await main(sponsor.id)).toBe(toMicro('30'));
    expect(await ctx.prisma.licensePurchase.count({ where: { userId: buyer.id } })).toBe(1);
    await expectBooksBalanced();
  });

  it('never double-charges concurrent purchases by one user with different keys', async () => {
    const buyer = await newUser(null);
    await deposit(buyer.id, '2000');
    const attempts = await Promise.allSettled(
      Array.from({ length: 4 }, (_, i) =>
        updateUserLicense(ctx, { userId: buyer.id, level: 'PRO2', idempotencyKey: `concurrent-${i}-xyz` }),
      ),
    );
    const ok = attempts.filter((a) => a.status === 'fulfilled');
    expect(ok).toHaveLength(1);
    for (const failed of attempts.filter((a) => a.status === 'rejected')) {
      expect((failed as PromiseRejectedResult).reason).toMatchObject({ code: 'LICENSE_NOT_UPGRADE' });
    }
    expect(await main(buyer.id)).toBe(toMicro('1700'));
    expect(await ctx.prisma.licensePurchase.count({ where: { userId: buyer.id } })).toBe(1);
    await expectBooksBalanced();
  });

  it('buying over an expired licence reconciles the running coin bots at once (the dry lifts)', async () => {
    const queue = createInProcessQueue();
    const reconciled: Array<{ coinBotId: number; reason?: string | undefined }> = [];
    queue.process(reconcileCoinBotJob, async (payload) => {
      reconciled.push(payload);
    });
    const withQueue = createTestContext({ prisma: db.prisma, clock: { now: () => now }, queue });
    // FREE, registered 20 days ago: expired.
    const user = await newUser(null, new Date(now.getTime() - 20 * DAY));
    const account = await ctx.prisma.exchangeAccount.create({
      data: {
        userId: user.id,
        exchange: 'binance',
        mode: 'sandbox',
        apiKey: `k${user.id}`,
        secretCipher: Buffer.alloc(1),
        secretIv: Buffer.alloc(1),
        keyId: 'k1',
      },
    });
    const bot = await ctx.prisma.coinBot.create({
      data: {
        userId: user.id,
        exchangeAccountId: account.id,
        coin: 'XRP',
        symbol: 'XRP/USDT',
        orderSize: '10',
        stepPct: '1',
        stepIncreasePct: '0.1',
        maxTrades: 3,
        running: true,
      },
    });
    await deposit(user.id, '100');
    await updateUserLicense(withQueue, { userId: user.id, level: 'PRO1' });
    await queue.drain(5_000);
    expect(reconciled).toEqual([{ coinBotId: bot.id, reason: 'license_bought' }]);
    await queue.close();
  });
});
