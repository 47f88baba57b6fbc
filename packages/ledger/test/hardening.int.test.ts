import { Prisma } from '@gridbot/db';
import { createTestDb, type TestDb } from '@gridbot/db/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  balanceOf,
  ensureAccount,
  ensureSystemAccounts,
  ensureUserAccounts,
  type LedgerErrorCode,
  ledgerRefusalOf,
  SYSTEM_ACCOUNTS,
  type TransferLeg,
  toMicro,
  transfer,
} from '../src/index';
import { counts, createUserAccounts, expectBooksBalanced, fund } from './fixtures';

// docs/ledger.md: each block guards one rule the database enforces whoever writes to it.

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

/** The typed refusal a raw statement ends with (what transfer() would throw for it). */
const refusalOf = async (statement: Promise<unknown>): Promise<LedgerErrorCode | undefined> => {
  const error = await statement.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'the statement should have been refused').toBeDefined();
  return ledgerRefusalOf(error)?.code;
};

describe('ledger_transfer() refuses malformed input by itself', () => {
  it.each([
    ['NULL accounts and amounts', null, null, 'INVALID_TRANSFER'],
    ['NULL amounts', ['system:chain_clearing', 'system:house'], null, 'INVALID_TRANSFER'],
    ['NULL accounts', null, [-1n, 1n], 'INVALID_TRANSFER'],
    [
      'a NULL amount',
      ['system:chain_clearing', 'system:house', 'system:fees'],
      [-1n, 1n, null],
      'INVALID_TRANSFER',
    ],
    ['a NULL account', ['system:chain_clearing', null], [-1n, 1n], 'INVALID_TRANSFER'],
    [
      'more amounts than accounts',
      ['system:chain_clearing', 'system:house'],
      [-2n, 1n, 1n],
      'INVALID_TRANSFER',
    ],
    ['empty arrays', [], [], 'TOO_FEW_LEGS'],
    ['one account twice', ['system:house', 'system:house'], [-1n, 1n], 'DUPLICATE_ACCOUNT'],
    ['a zero leg', ['system:chain_clearing', 'system:house', 'system:fees'], [-1n, 1n, 0n], 'ZERO_LEG'],
    ['an unbalanced pair', ['system:chain_clearing', 'system:house'], [-1n, 2n], 'UNBALANCED'],
  ] as const)('%s → %s, nothing written, the key stays usable', async (_name, codes, amounts, code) => {
    const { prisma } = db;
    await ensureSystemAccounts(prisma);
    const before = await counts(prisma);

    const call = prisma.$queryRaw`SELECT * FROM ledger_transfer('direct', 'deposit', NULL,
      ${codes === null ? null : [...codes]}::text[],
      ${amounts === null ? null : amounts.map((amount) => amount?.toString() ?? null)}::bigint[])`;

    expect(await refusalOf(call)).toBe(code);
    expect(await counts(prisma)).toEqual(before);
    const retry = await transfer(prisma, {
      idempotencyKey: 'direct',
      type: 'deposit',
      legs: move(SYSTEM_ACCOUNTS.chainClearing, SYSTEM_ACCOUNTS.house, '1'),
    });
    expect(retry.replayed).toBe(false);
    await expectBooksBalanced(prisma);
  });

  it.each([
    ['a NULL key', Prisma.sql`NULL`, Prisma.sql`'deposit'`],
    ['an empty key', Prisma.sql`''`, Prisma.sql`'deposit'`],
    ['a NULL type', Prisma.sql`'k'`, Prisma.sql`NULL`],
  ])('%s → INVALID_TRANSFER', async (_name, key, type) => {
    const { prisma } = db;
    await ensureSystemAccounts(prisma);

    const call = prisma.$queryRaw`SELECT * FROM ledger_transfer(${key}, ${type}, NULL,
      ARRAY['system:chain_clearing', 'system:house'], ARRAY[-1, 1]::bigint[])`;

    expect(await refusalOf(call)).toBe('INVALID_TRANSFER');
    expect(await counts(prisma)).toEqual({ transfers: 0, entries: 0 });
  });
});

describe('only ledger_transfer() writes the books', () => {
  it.each([
    ['TRUNCATE ledger_entries', Prisma.sql`TRUNCATE ledger_entries`],
    ['TRUNCATE ledger_transfers CASCADE', Prisma.sql`TRUNCATE ledger_transfers CASCADE`],
    ['TRUNCATE ledger_accounts CASCADE', Prisma.sql`TRUNCATE ledger_accounts CASCADE`],
    ['TRUNCATE all three', Prisma.sql`TRUNCATE ledger_entries, ledger_transfers, ledger_accounts`],
  ])('refuses %s', async (_name, statement) => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '5');
    const before = await counts(prisma);

    expect(await refusalOf(prisma.$executeRaw(statement))).toBe('BOOKS_PROTECTED');

    expect(await counts(prisma)).toEqual(before);
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('5'));
    await expectBooksBalanced(prisma);
  });

  it.each([
    ['the balance', Prisma.sql`balance = 1000000000000000`],
    ['the balance to itself', Prisma.sql`balance = balance`],
    ['the code', Prisma.sql`code = code || 'x'`],
    ['the kind', Prisma.sql`kind = 'system', user_id = NULL, sub_balance = NULL`],
    ['the sub-balance', Prisma.sql`sub_balance = 'fee'`],
    ['the overdraft right', Prisma.sql`overdraft = 'unlimited'`],
    ['the creation time', Prisma.sql`created_at = now() - interval '1 day'`],
  ])('refuses a direct UPDATE of %s', async (_name, assignment) => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '5');

    const update = prisma.$executeRaw`UPDATE ledger_accounts SET ${assignment} WHERE code = ${alice.main}`;

    expect(await refusalOf(update)).toBe('BOOKS_PROTECTED');
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('5'));
    await expectBooksBalanced(prisma);
  });

  it("refuses a balance UPDATE that sets ledger_transfer()'s marker the obvious way", async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '5');

    const forged = prisma.$transaction([
      prisma.$queryRaw`SELECT set_config('ledger.in_transfer', 'on', true)`,
      prisma.$executeRaw`UPDATE ledger_accounts SET balance = balance + 1 WHERE code = ${alice.main}`,
    ]);

    expect(await refusalOf(forged)).toBe('BOOKS_PROTECTED');
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('5'));
  });

  it('refuses a balance UPDATE later in the transaction that called ledger_transfer()', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    await fund(prisma, alice.main, '5');
    const before = await counts(prisma);

    const piggyback = prisma.$transaction([
      prisma.$queryRaw`SELECT * FROM ledger_transfer('k', 'deposit', NULL,
        ARRAY['system:chain_clearing', ${alice.main}], ARRAY[-1, 1]::bigint[])`,
      prisma.$executeRaw`UPDATE ledger_accounts SET balance = balance + 1 WHERE code = ${alice.main}`,
    ]);

    expect(await refusalOf(piggyback)).toBe('BOOKS_PROTECTED');
    expect(await counts(prisma)).toEqual(before);
    expect(await balanceOf(prisma, alice.main)).toBe(toMicro('5'));
  });

  it('refuses transfers and entries inserted directly, and an account opened with money', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    const { id: transferId } = await fund(prisma, alice.main, '5');
    const account = await ensureAccount(prisma, alice.main);
    const before = await counts(prisma);

    expect(
      await refusalOf(
        prisma.$executeRaw`INSERT INTO ledger_transfers (idempotency_key, type) VALUES ('forged', 'deposit')`,
      ),
    ).toBe('BOOKS_PROTECTED');
    expect(
      await refusalOf(
        prisma.$executeRaw`INSERT INTO ledger_entries (transfer_id, account_id, amount, balance_after)
          VALUES (${transferId}, ${account.id}, 1, 1)`,
      ),
    ).toBe('BOOKS_PROTECTED');
    expect(
      await refusalOf(
        prisma.$executeRaw`INSERT INTO ledger_accounts (code, kind, balance, overdraft)
          VALUES ('system:gift', 'system', 1000000, 'none')`,
      ),
    ).toBe('BOOKS_PROTECTED');
    expect(await counts(prisma)).toEqual(before);
    await expectBooksBalanced(prisma);
  });
});

describe('overdraft: only chain clearing, and a fee balance through trade_fee', () => {
  it('lets a trade fee take the fee balance below zero, and nothing else', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    await ensureSystemAccounts(prisma);
    await fund(prisma, alice.fee, '1');

    await transfer(prisma, {
      idempotencyKey: 'fee-1',
      type: 'trade_fee',
      legs: move(alice.fee, SYSTEM_ACCOUNTS.fees, '2.5'),
    });
    expect(await balanceOf(prisma, alice.fee)).toBe(-toMicro('1.5'));

    for (const type of ['transfer_out', 'withdraw', 'unknown'] as const) {
      await expect(
        transfer(prisma, { idempotencyKey: `fee-${type}`, type, legs: move(alice.fee, alice.main, '0.5') }),
      ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    }
    expect(await balanceOf(prisma, alice.fee)).toBe(-toMicro('1.5'));
    await expectBooksBalanced(prisma);
  });

  it.each([
    SYSTEM_ACCOUNTS.house,
    SYSTEM_ACCOUNTS.fees,
    SYSTEM_ACCOUNTS.bonusPool,
    SYSTEM_ACCOUNTS.withdrawalFees,
  ])('%s never goes below zero', async (system) => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    await ensureSystemAccounts(prisma);

    await expect(
      transfer(prisma, {
        idempotencyKey: 'pay-out',
        type: 'referral_bonus',
        legs: move(system, alice.main, '1'),
      }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    await expect(
      transfer(prisma, { idempotencyKey: 'fee-out', type: 'trade_fee', legs: move(system, alice.main, '1') }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
    expect(await balanceOf(prisma, system)).toBe(0n);
    await expectBooksBalanced(prisma);
  });

  it('lets chain clearing go below zero: it mirrors the USDT held on chain', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);
    await ensureSystemAccounts(prisma);

    await transfer(prisma, {
      idempotencyKey: 'deposit:tx1:0',
      type: 'deposit',
      legs: move(SYSTEM_ACCOUNTS.chainClearing, alice.main, '25.5'),
    });

    expect(await balanceOf(prisma, SYSTEM_ACCOUNTS.chainClearing)).toBe(-toMicro('25.5'));
    await expectBooksBalanced(prisma);
  });

  it('refuses an account row whose overdraft right does not follow from its code (CHECK)', async () => {
    const { prisma } = db;
    const alice = await createUserAccounts(prisma);

    for (const [code, kind, userId, sub, overdraft] of [
      ['system:house', 'system', null, null, 'unlimited'],
      ['system:chain_clearing', 'system', null, null, 'none'],
      [`user:${alice.userId}:savings`, 'user', alice.userId, 'savings', 'none'],
      [`user:${alice.userId + 1}:main`, 'user', alice.userId, 'main', 'none'],
    ] as const) {
      await prisma.$executeRaw`DELETE FROM ledger_accounts WHERE code = ${code}`;
      await expect(
        prisma.$executeRaw`INSERT INTO ledger_accounts (code, kind, user_id, sub_balance, overdraft)
          VALUES (${code}, ${kind}::ledger_account_kind, ${userId}, ${sub}, ${overdraft}::ledger_overdraft)`,
      ).rejects.toThrow(/ledger_accounts_(overdraft_rule|identity)/);
    }
  });

  it('opens the accounts the wallet needs with the rights the rule gives them', async () => {
    const { prisma } = db;
    const { userId } = await createUserAccounts(prisma);

    const system = await ensureSystemAccounts(prisma);
    const user = await ensureUserAccounts(prisma, userId);

    expect(Object.values(system).map((account) => [account.code, account.overdraft])).toEqual([
      ['system:house', 'none'],
      ['system:fees', 'none'],
      ['system:bonus_pool', 'none'],
      ['system:chain_clearing', 'unlimited'],
      ['system:withdrawal_fees', 'none'],
      ['system:withdrawals_held', 'none'],
    ]);
    expect([user.main.overdraft, user.fee.overdraft]).toEqual(['none', 'trade_fee']);
    await expect(ensureAccount(prisma, `user:${userId}:savings`)).rejects.toMatchObject({
      code: 'INVALID_ACCOUNT_CODE',
    });
  });
});
