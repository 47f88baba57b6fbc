import { createTestDb, type TestDb } from '@gridbot/db/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  balanceOf,
  checkInvariants,
  ensureSystemAccounts,
  entriesOf,
  SYSTEM_ACCOUNTS,
  type TransferLeg,
  toMicro,
  transfer,
} from '../src/index';
import { counts, createUserAccounts, expectBooksBalanced, fund } from './fixtures';

let db: TestDb;
beforeEach(async () => {
  db = await createTestDb();
});
afterEach(async () => {
  await db.close();
});

const move = (from: string, to: string, usdt: string): TransferLeg[] => [
  { account: from, amount: -toMicro(usdt) },
  { account: to, amount: toMicro(usdt) },
];

describe('transfer', () => {
  it('moves money between accounts and records one entry per leg', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    const bob = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '100');

    const result = await transfer(prisma, {
      idempotencyKey: 'uid-transfer-1',
      type: 'transfer_out',
      legs: move(alice.main, bob.main, '12.345678'),
      memo: { toUid: 100002 },
    });

    expect(result.replayed).toBe(false);
    expect(result.memo).toEqual({ toUid: 100002 });
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('87.654322'));
    expect(await balanceOf(prisma, bob.main)).toBe(toMicro('12.345678'));
    expect(result.entries).toContainEqual({
      account: bob.main,
      amount: toMicro('12.345678'),
      balanceAfter: toMicro('12.345678'),
    });
    const statement = await entriesOf(prisma, alice.main);
    expect(statement.items.map((entry) => [entry.type, entry.amount, entry.balanceAfter])).toEqual([
      ['transfer_out', -toMicro('12.345678'), toMicro('87.654322')],
      ['deposit', toMicro('100'), toMicro('100')],
    ]);
    await expectBooksBalanced(prisma);
  });

  it.each([
    [
      'unbalanced',
      'UNBALANCED',
      (a: string, b: string) => [
        { account: a, amount: -5n },
        { account: b, amount: 4n },
      ],
    ],
    ['a single leg', 'TOO_FEW_LEGS', (a: string) => [{ account: a, amount: 0n }]],
    [
      'a zero leg',
      'ZERO_LEG',
      (a: string, b: string, c: string) => [
        { account: a, amount: -5n },
        { account: b, amount: 5n },
        { account: c, amount: 0n },
      ],
    ],
    [
      'one account twice',
      'DUPLICATE_ACCOUNT',
      (a: string) => [
        { account: a, amount: -5n },
        { account: a, amount: 5n },
      ],
    ],
  ] as const)('refuses %s with %s and writes nothing', async (_name, code, legsOf) => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    const bob = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '10');
    const before = await counts(prisma);

    await expect(
      transfer(prisma, {
        idempotencyKey: 'bad',
        type: 'transfer_out',
        legs: legsOf(alice.main, bob.main, bob.fee),
      }),
    ).rejects.toMatchObject({ name: 'LedgerError', code });

    expect(await counts(prisma)).toEqual(before);
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('10'));
    await expectBooksBalanced(prisma);
  });

  it('refuses a leg on an unknown account and rolls back the legs already applied', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '10');
    const before = await counts(prisma);

    // Legs apply in code order: alice's debit ('user:…') lands before the unknown 'zzz:…' leg fails.
    await expect(
      transfer(prisma, {
        idempotencyKey: 'k',
        type: 'transfer_out',
        legs: move(alice.main, 'zzz:nobody', '1'),
      }),
    ).rejects.toMatchObject({ code: 'ACCOUNT_NOT_FOUND' });

    expect(await counts(prisma)).toEqual(before);
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('10'));
    await expectBooksBalanced(prisma);
  });
});

describe('idempotency', () => {
  it('returns the original transfer for a repeated key and changes nothing', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    const bob = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '10');
    const request = {
      idempotencyKey: 'req-1',
      type: 'transfer_out' as const,
      legs: move(alice.main, bob.main, '3'),
    };

    const first = await transfer(prisma, request);
    const before = await counts(prisma);
    const again = await transfer(prisma, { ...request, legs: [...request.legs].reverse() });

    expect(again).toEqual({ ...first, replayed: true });
    expect(await counts(prisma)).toEqual(before);
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('7'));
    expect(await balanceOf(prisma, bob.main)).toBe(toMicro('3'));
    await expectBooksBalanced(prisma);
  });

  it.each([
    ['another amount', 'transfer_out', '4'],
    ['another type', 'transfer_in', '3'],
  ] as const)('refuses the same key with %s (IDEMPOTENCY_CONFLICT)', async (_name, type, usdt) => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    const bob = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '10');
    await transfer(prisma, {
      idempotencyKey: 'req-1',
      type: 'transfer_out',
      legs: move(alice.main, bob.main, '3'),
    });
    const before = await counts(prisma);

    await expect(
      transfer(prisma, { idempotencyKey: 'req-1', type, legs: move(alice.main, bob.main, usdt) }),
    ).rejects.toMatchObject({ code: 'IDEMPOTENCY_CONFLICT' });

    expect(await counts(prisma)).toEqual(before);
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('7'));
    await expectBooksBalanced(prisma);
  });
});

describe('overdraft', () => {
  it('refuses to overdraw a main balance, writes nothing and leaves the key usable', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    const bob = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '10');
    const before = await counts(prisma);

    await expect(
      transfer(prisma, {
        idempotencyKey: 'w-1',
        type: 'transfer_out',
        legs: move(alice.main, bob.main, '10.000001'),
      }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });

    expect(await counts(prisma)).toEqual(before);
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('10'));
    expect(await balanceOf(prisma, bob.main)).toBe(0n);
    const retry = await transfer(prisma, {
      idempotencyKey: 'w-1',
      type: 'transfer_out',
      legs: move(alice.main, bob.main, '10'),
    });
    expect(retry.replayed).toBe(false);
    expect(await balanceOf(prisma, alice.main)).toBe(0n);
    await expectBooksBalanced(prisma);
  });

  it('lets a trade fee overdraw the fee balance and pays bonuses only from a funded pool', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    await ensureSystemAccounts(prisma);

    // A trading fee larger than the fee balance: it goes below zero and the bots dry up.
    await transfer(prisma, {
      idempotencyKey: 'fee-1',
      type: 'trade_fee',
      legs: move(alice.fee, SYSTEM_ACCOUNTS.fees, '2.5'),
    });
    await expect(
      transfer(prisma, {
        idempotencyKey: 'bonus-1',
        type: 'referral_bonus',
        legs: move(SYSTEM_ACCOUNTS.bonusPool, alice.main, '1'),
      }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await transfer(prisma, {
      idempotencyKey: 'pool-1',
      type: 'unknown',
      legs: move(SYSTEM_ACCOUNTS.fees, SYSTEM_ACCOUNTS.bonusPool, '1'),
    });
    await transfer(prisma, {
      idempotencyKey: 'bonus-1',
      type: 'referral_bonus',
      legs: move(SYSTEM_ACCOUNTS.bonusPool, alice.main, '1'),
    });

    expect(await balanceOf(prisma, alice.fee)).toBe(-toMicro('2.5'));
    expect(await balanceOf(prisma, SYSTEM_ACCOUNTS.fees)).toBe(toMicro('1.5'));
    expect(await balanceOf(prisma, SYSTEM_ACCOUNTS.bonusPool)).toBe(0n);
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('1'));
    await expectBooksBalanced(prisma);
  });
});

describe('books', () => {
  it('pages an account statement newest first', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    for (let i = 1; i <= 5; i += 1) await fund(prisma, alice.main, `${i}`);

    const first = await entriesOf(prisma, alice.main, { page: 1, limit: 2 });
    const last = await entriesOf(prisma, alice.main, { page: 3, limit: 2 });

    expect(first.items.map((entry) => entry.amount)).toEqual([toMicro('5'), toMicro('4')]);
    expect(first.hasMore).toBe(true);
    expect(last.items.map((entry) => [entry.amount, entry.balanceAfter])).toEqual([
      [toMicro('1'), toMicro('1')],
    ]);
    expect(last.hasMore).toBe(false);
    await expect(balanceOf(prisma, 'user:999:main')).rejects.toMatchObject({ code: 'ACCOUNT_NOT_FOUND' });
  });

  it('keeps entries and transfers append-only', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '1');

    await expect(prisma.$executeRaw`UPDATE ledger_entries SET amount = amount * 2`).rejects.toThrow(
      /append-only/,
    );
    await expect(prisma.$executeRaw`DELETE FROM ledger_transfers`).rejects.toThrow(/append-only/);
    await expectBooksBalanced(prisma);
  });

  it('checkInvariants reports a cached balance that drifted from its entries', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '1');
    // Only an owner who switches the guard off can make a balance drift (docs/ledger.md).
    await prisma.$executeRaw`ALTER TABLE ledger_accounts DISABLE TRIGGER ledger_accounts_guard_update`;
    await prisma.$executeRaw`UPDATE ledger_accounts SET balance = balance + 1 WHERE code = ${alice.main}`;
    await prisma.$executeRaw`ALTER TABLE ledger_accounts ENABLE TRIGGER ledger_accounts_guard_update`;

    const report = await checkInvariants(prisma);

    expect(report.ok).toBe(false);
    expect(report.totalSum).toBe(1n);
    expect(report.mismatches).toEqual([
      { kind: 'account_balance', account: alice.main, balance: toMicro('1') + 1n, entriesSum: toMicro('1') },
    ]);
  });
});
