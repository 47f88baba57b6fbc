import type { LedgerTransferType, Prisma, PrismaClient } from '@gridbot/db';
import { LedgerError } from './ledger-error';

const accountId = async (prisma: PrismaClient, code: string): Promise<{ id: number; balance: bigint }> => {
  const account = await prisma.ledgerAccount.findUnique({
    where: { code },
    select: { id: true, balance: true },
  });
  if (!account) throw new LedgerError('ACCOUNT_NOT_FOUND', `No ledger account ${code}`);
  return account;
};

/** The cached running balance (micro-USDT); checkInvariants proves it equals the sum of entries. */
export const balanceOf = async (prisma: PrismaClient, code: string): Promise<bigint> =>
  (await accountId(prisma, code)).balance;

export type AccountEntry = {
  id: bigint;
  transferId: bigint;
  type: LedgerTransferType;
  idempotencyKey: string;
  memo: Prisma.JsonValue;
  amount: bigint;
  balanceAfter: bigint;
  createdAt: Date;
};

export type EntriesPage = { items: AccountEntry[]; page: number; limit: number; hasMore: boolean };

export const MAX_ENTRIES_LIMIT = 100;

/** An account's statement, newest first; `page` starts at 1. Served by the (account_id, id) index. */
export const entriesOf = async (
  prisma: PrismaClient,
  code: string,
  { page = 1, limit = 20 }: { page?: number; limit?: number } = {},
): Promise<EntriesPage> => {
  if (
    !Number.isInteger(page) ||
    page < 1 ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > MAX_ENTRIES_LIMIT
  ) {
    throw new LedgerError('INVALID_TRANSFER', `Bad page ${page} / limit ${limit} (1..${MAX_ENTRIES_LIMIT})`);
  }
  const { id } = await accountId(prisma, code);
  // One extra row tells whether there is a next page without a COUNT over the whole history.
  const rows = await prisma.ledgerEntry.findMany({
    where: { accountId: id },
    orderBy: { id: 'desc' },
    skip: (page - 1) * limit,
    take: limit + 1,
    include: { transfer: { select: { type: true, idempotencyKey: true, memo: true } } },
  });
  const items = rows.slice(0, limit).map((row) => ({
    id: row.id,
    transferId: row.transferId,
    type: row.transfer.type,
    idempotencyKey: row.transfer.idempotencyKey,
    memo: row.transfer.memo,
    amount: row.amount,
    balanceAfter: row.balanceAfter,
    createdAt: row.createdAt,
  }));
  return { items, page, limit, hasMore: rows.length > limit };
};
