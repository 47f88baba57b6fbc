import type { PrismaClient } from '@gridbot/db';
import { expect } from 'vitest';
import {
  checkInvariants,
  ensureAccount,
  SYSTEM_ACCOUNTS,
  toMicro,
  transfer,
  userAccountCode,
} from '../src/index';

let nextTelegramId = 1000n;
let nextFunding = 0;

/** A user row (ledger user accounts reference users) with its main and fee accounts. */
export const createUserAccounts = async (prisma: PrismaClient) => {
  nextTelegramId += 1n;
  const name = `u${nextTelegramId}`;
  const user = await prisma.user.create({
    data: {
      telegramId: nextTelegramId,
      username: name,
      usernameKey: name,
      firstName: 'U',
      referralCode: name,
    },
  });
  const main = userAccountCode(user.id, 'main');
  const fee = userAccountCode(user.id, 'fee');
  await ensureAccount(prisma, main);
  await ensureAccount(prisma, fee);
  return { userId: user.id, main, fee };
};

/** Credits `usdt` from the house, as a deposit would. */
export const fund = async (prisma: PrismaClient, account: string, usdt: string) => {
  await ensureAccount(prisma, SYSTEM_ACCOUNTS.house);
  const amount = toMicro(usdt);
  nextFunding += 1;
  return transfer(prisma, {
    idempotencyKey: `fund:${account}:${nextFunding}`,
    type: 'deposit',
    legs: [
      { account: SYSTEM_ACCOUNTS.house, amount: -amount },
      { account, amount },
    ],
  });
};

export const expectBooksBalanced = async (prisma: PrismaClient) => {
  expect(await checkInvariants(prisma)).toEqual({ ok: true, totalSum: 0n, mismatches: [] });
};

/** Rows written so far: "nothing written" means these did not move. */
export const counts = async (prisma: PrismaClient) => ({
  transfers: await prisma.ledgerTransfer.count(),
  entries: await prisma.ledgerEntry.count(),
});
