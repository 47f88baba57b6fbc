import { randomBytes } from 'node:crypto';
import { createTestDb } from '@gridbot/db/testing';
import { createBullQueue, createInProcessQueue, type JobQueue } from '@gridbot/jobs';
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
import { accrueMatchingBonus, grantLicense } from '@gridbot/services';
import { createTestContext } from '@gridbot/services/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueBonusJobs, registerBonusJobs } from '../src/jobs/bonuses';

/**
 * The worker's bonus jobs wired to the queue of each mode (in process; BullMQ when REDIS_URL is
 * set): a tick enqueues the matching payout, the network expansion payout and the licence notices,
 * and two workers running the same tick pay once.
 */

let db: Awaited<ReturnType<typeof createTestDb>>;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => db?.close());

const DAY = 86_400_000;
const HOUR = 3_600_000;

const queues = (): Array<[string, () => JobQueue]> => {
  const modes: Array<[string, () => JobQueue]> = [['in-process', () => createInProcessQueue()]];
  const redisUrl = process.env.REDIS_URL;
  const prefix = `test-bonus-${randomBytes(4).toString('hex')}`;
  if (redisUrl) modes.push(['bullmq', () => createBullQueue({ redisUrl, prefix })]);
  return modes;
};

describe.each(queues())('bonus jobs (%s)', (mode, makeQueue) => {
  it('a tick pays closed days of matching bonus once, even with two workers', async () => {
    const prisma = db.prisma;
    const tag = `${mode}-${Date.now() % 1_000_000}`;
    const user = (name: string, sponsorId: number | null) =>
      prisma.user.create({
        data: {
          telegramId: BigInt(Math.floor(Math.random() * 1e12)),
          username: `${name}_${tag}`,
          usernameKey: `${name}_${tag}`,
          firstName: name,
          referralCode: `${name}${tag}`,
          sponsorId,
        },
      });
    const sponsor = await user('sp', null);
    const trader = await user('tr', sponsor.id);
    const yesterday = new Date(Date.now() - DAY);
    const ctx = createTestContext({ prisma });
    await grantLicense(ctx, { userId: sponsor.id, level: 'PRO1' });
    // A trading fee booked yesterday, accrued as the engine does in the fee's transaction.
    await ensureAccount(prisma, SYSTEM_ACCOUNTS.fees);
    await ensureUserAccounts(prisma, trader.id);
    const fee = toMicro('2.5');
    await prisma.$transaction(async (tx) => {
      const charged = await transfer(tx, {
        idempotencyKey: `test-fee:${tag}`,
        type: 'trade_fee',
        legs: [
          { account: userAccountCode(trader.id, 'fee'), amount: -fee },
          { account: SYSTEM_ACCOUNTS.fees, amount: fee },
        ],
      });
      await accrueMatchingBonus(tx, { feeTransferId: charged.id, partnerId: trader.id, fee, at: yesterday });
      // Seen again (a replayed fee): no second accrual.
      await accrueMatchingBonus(tx, { feeTransferId: charged.id, partnerId: trader.id, fee, at: yesterday });
    });
    expect(await prisma.matchingAccrual.count({ where: { uplineId: sponsor.id } })).toBe(1);

    // Two workers on one queue transport, both scheduling the same tick.
    const workers = [makeQueue(), makeQueue()].map((queue) => createTestContext({ prisma, queue }));
    for (const worker of workers) registerBonusJobs(worker);
    await Promise.all(workers.map((worker) => enqueueBonusJobs(worker, HOUR)));
    await Promise.all(workers.map((worker) => enqueueBonusJobs(worker, HOUR)));
    const paid = async () =>
      prisma.matchingAccrual.count({ where: { uplineId: sponsor.id, payoutTransferId: { not: null } } });
    for (let i = 0; i < 100 && (await paid()) === 0; i += 1) await new Promise((r) => setTimeout(r, 100));
    for (const worker of workers) await worker.queue.drain(10_000);

    expect(await paid()).toBe(1);
    expect(await balanceOf(prisma, userAccountCode(sponsor.id, 'main'))).toBe(toMicro('0.25'));
    expect(
      await prisma.ledgerTransfer.count({
        where: { type: 'matching_bonus', idempotencyKey: { contains: `:${sponsor.id}:` } },
      }),
    ).toBe(1);
    expect(await prisma.notification.count({ where: { userId: sponsor.id, kind: 'bonus_credited' } })).toBe(
      1,
    );
    expect((await checkInvariants(prisma)).ok).toBe(true);
    for (const worker of workers) await worker.queue.close();
  });
});
