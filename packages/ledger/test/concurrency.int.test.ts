import { createTestDb, type TestDb } from '@gridbot/db/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { balanceOf, toMicro, transfer } from '../src/index';
import { counts, createUserAccounts, expectBooksBalanced, fund } from './fixtures';

let db: TestDb;
beforeEach(async () => {
  db = await createTestDb();
});
afterEach(async () => {
  await db.close();
});

describe('concurrent transfers', () => {
  it('50 concurrent debits of an account that affords 20: exactly 20 succeed, no overdraft', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    const bob = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '20');
    const before = await counts(prisma);

    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        transfer(prisma, {
          idempotencyKey: `spend-${i}`,
          type: 'transfer_out',
          legs: [
            { account: alice.main, amount: -toMicro('1') },
            { account: bob.main, amount: toMicro('1') },
          ],
        }),
      ),
    );

    const refused = results.filter((result) => result.status === 'rejected');
    expect(results.length - refused.length).toBe(20);
    for (const result of refused) expect(result.reason).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(await balanceOf(prisma, alice.main)).toBe(0n);
    expect(await balanceOf(prisma, bob.main)).toBe(toMicro('20'));
    expect(await counts(prisma)).toEqual({ transfers: before.transfers + 20, entries: before.entries + 40 });
    await expectBooksBalanced(prisma);
  });

  it('transfers both ways between two accounts at once neither deadlock nor lose updates', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    const bob = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '1000');
    await fund(prisma, bob.main, '1000');

    // Each direction's legs listed debit-first, so an unordered implementation would lock
    // alice→bob and bob→alice in opposite orders and deadlock on PostgreSQL.
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => {
        const [from, to] = i % 2 === 0 ? [alice.main, bob.main] : [bob.main, alice.main];
        const amount = toMicro(i % 2 === 0 ? '2' : '1');
        return transfer(prisma, {
          idempotencyKey: `both-${i}`,
          type: 'transfer_out',
          legs: [
            { account: from, amount: -amount },
            { account: to, amount },
          ],
        });
      }),
    );

    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('900'));
    expect(await balanceOf(prisma, bob.main)).toBe(toMicro('1100'));
    await expectBooksBalanced(prisma);
  });

  it('the same idempotency key sent 20 times at once writes one transfer', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    const bob = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '10');

    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        transfer(prisma, {
          idempotencyKey: 'double-click',
          type: 'transfer_out',
          legs: [
            { account: alice.main, amount: -toMicro('3') },
            { account: bob.main, amount: toMicro('3') },
          ],
        }),
      ),
    );

    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('7'));
    await expectBooksBalanced(prisma);
  });
});
