// Wallet history for benchmark users, booked with the ledger's own transfer() (the one write path of
// the books, docs/ledger.md) rather than raw inserts: per user a deposit of DEPOSIT_USDT on main,
// FEE_USDT of it moved to the fee balance (`deposit_balance`, as `POST /wallet/add_money` books it)
// and TRANSFER_USDT sent to the next user (`transfer_out`), so `POST /wallet` lists three to four
// transactions per user. Amounts in micro-USDT (bigint).
import type { PrismaClient } from '@gridbot/db';

const DEPOSIT_USDT = '50';
const FEE_USDT = '10';
const TRANSFER_USDT = '1.5';

export const seedWallets = async (
  prisma: PrismaClient,
  userIds: number[],
  concurrency = 8,
): Promise<number> => {
  const { openAccounts, SYSTEM_ACCOUNTS, toMicro, transfer, userAccountCode } = await import(
    '@gridbot/ledger'
  );
  await openAccounts(prisma, [SYSTEM_ACCOUNTS.chainClearing]);
  await openAccounts(
    prisma,
    userIds.flatMap((id) => [userAccountCode(id, 'main'), userAccountCode(id, 'fee')]),
  );
  const deposit = toMicro(DEPOSIT_USDT);
  const fee = toMicro(FEE_USDT);
  const sent = toMicro(TRANSFER_USDT);
  let booked = 0;
  const book = async (userId: number, next: number) => {
    const main = userAccountCode(userId, 'main');
    await transfer(prisma, {
      idempotencyKey: `bench-deposit:${userId}`,
      type: 'deposit',
      legs: [
        { account: SYSTEM_ACCOUNTS.chainClearing, amount: -deposit },
        { account: main, amount: deposit },
      ],
    });
    await transfer(prisma, {
      idempotencyKey: `bench-top-up:${userId}`,
      type: 'deposit_balance',
      legs: [
        { account: main, amount: -fee },
        { account: userAccountCode(userId, 'fee'), amount: fee },
      ],
    });
    await transfer(prisma, {
      idempotencyKey: `bench-transfer:${userId}`,
      type: 'transfer_out',
      legs: [
        { account: main, amount: -sent },
        { account: userAccountCode(next, 'main'), amount: sent },
      ],
    });
    booked += 3;
  };
  let cursor = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = cursor++; i < userIds.length; i = cursor++) {
        await book(userIds[i] as number, userIds[(i + 1) % userIds.length] as number);
      }
    }),
  );
  return booked;
};
