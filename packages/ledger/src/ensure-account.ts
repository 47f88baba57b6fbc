import type { LedgerAccount } from '@gridbot/db';
import { overdraftOf, parseAccountCode, SYSTEM_ACCOUNTS, userAccountCode } from './account-code';
import type { LedgerClient } from './transfer';

/**
 * The account with this code, created on first use. Kind, owner, sub-balance and overdraft right
 * all follow from the code (docs/ledger.md#accounts), so there is nothing to choose. Race-free:
 * concurrent callers insert with ON CONFLICT DO NOTHING and all read the one row.
 */
export const ensureAccount = async (prisma: LedgerClient, code: string): Promise<LedgerAccount> => {
  await openAccounts(prisma, [code]);
  return prisma.ledgerAccount.findUniqueOrThrow({ where: { code } });
};

/**
 * Opens the accounts with these codes that do not exist yet, in one statement, without reading
 * them back (for hot paths that only need them to exist, e.g. inside the transaction closing a lot).
 */
export const openAccounts = async (prisma: LedgerClient, codes: readonly string[]): Promise<void> => {
  await prisma.ledgerAccount.createMany({
    data: codes.map((code) => {
      const parsed = parseAccountCode(code);
      return {
        code,
        kind: parsed.kind,
        userId: parsed.kind === 'user' ? parsed.userId : null,
        subBalance: parsed.kind === 'user' ? parsed.subBalance : null,
        overdraft: overdraftOf(code),
      };
    }),
    skipDuplicates: true,
  });
};

/** A user's wallet: the main and the fee balance (docs/ledger.md). The user row must exist. */
export const ensureUserAccounts = async (
  prisma: LedgerClient,
  userId: number,
): Promise<{ main: LedgerAccount; fee: LedgerAccount }> => ({
  main: await ensureAccount(prisma, userAccountCode(userId, 'main')),
  fee: await ensureAccount(prisma, userAccountCode(userId, 'fee')),
});

export type SystemAccounts = { -readonly [name in keyof typeof SYSTEM_ACCOUNTS]: LedgerAccount };

/** Every system account, created on first use (start-up calls it once). */
export const ensureSystemAccounts = async (prisma: LedgerClient): Promise<SystemAccounts> => {
  const accounts: Partial<SystemAccounts> = {};
  for (const [name, code] of Object.entries(SYSTEM_ACCOUNTS)) {
    accounts[name as keyof SystemAccounts] = await ensureAccount(prisma, code);
  }
  return accounts as SystemAccounts;
};
