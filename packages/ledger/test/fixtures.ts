import type { PrismaClient } from '@gridbot/db';
import { expect } from 'vitest';
import {
  checkInvariants,
  ensureAccount,
  ensureUserAccounts,
  SYSTEM_ACCOUNTS,
  toMicro,
  transfer,
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
  const { main, fee } = await ensureUserAccounts(prisma, user.id);
  return { userId: user.id, main: main.code, fee: fee.code };
};

/** Credits `usdt` from chain clearing, as a deposit does. */
export const fund = async (prisma: PrismaClient, account: string, usdt: string) => {
  await ensureAccount(prisma, SYSTEM_ACCOUNTS.chainClearing);
  const amount = toMicro(usdt);
  nextFunding += 1;
  return transfer(prisma, {
    idempotencyKey: `fund:${account}:${nextFunding}`,
    type: 'deposit',
    legs: [
      { account: SYSTEM_ACCOUNTS.chainClearing, amount: -amount },
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
