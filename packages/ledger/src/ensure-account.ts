import type { LedgerAccount, PrismaClient } from '@gridbot/db';
import { overdraftOf, parseAccountCode, SYSTEM_ACCOUNTS, userAccountCode } from './account-code';

/**
 * The account with this code, created on first use. Kind, owner, sub-balance and overdraft right
 * all follow from the code (docs/ledger.md#accounts), so there is nothing to choose. Race-free:
 * concurrent callers insert with ON CONFLICT DO NOTHING and all read the one row.
 */
export const ensureAccount = async (prisma: PrismaClient, code: string): Promise<LedgerAccount> => {
  const parsed = parseAccountCode(code);
  await prisma.ledgerAccount.createMany({
    data: [
      {
        code,
        kind: parsed.kind,
        userId: parsed.kind === 'user' ? parsed.userId : null,
        subBalance: parsed.kind === 'user' ? parsed.subBalance : null,
        overdraft: overdraftOf(code),
      },
    ],
    skipDuplicates: true,
  });
  return prisma.ledgerAccount.findUniqueOrThrow({ where: { code } });
};

/** A user's wallet: the main and the fee balance (docs/ledger.md). The user row must exist. */
export const ensureUserAccounts = async (
  prisma: PrismaClient,
  userId: number,
): Promise<{ main: LedgerAccount; fee: LedgerAccount }> => ({
  main: await ensureAccount(prisma, userAccountCode(userId, 'main')),
  fee: await ensureAccount(prisma, userAccountCode(userId, 'fee')),
});

export type SystemAccounts = { -readonly [name in keyof typeof SYSTEM_ACCOUNTS]: LedgerAccount };

/** Every system account, created on first use (start-up calls it once). */
export const ensureSystemAccounts = async (prisma: PrismaClient): Promise<SystemAccounts> => {
  const accounts: Partial<SystemAccounts> = {};
  for (const [name, code] of Object.entries(SYSTEM_ACCOUNTS)) {
    accounts[name as keyof SystemAccounts] = await ensureAccount(prisma, code);
  }
  return accounts as SystemAccounts;
};
