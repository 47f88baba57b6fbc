import type { LedgerAccount, PrismaClient } from '@gridbot/db';
import { parseAccountCode } from './account-code';

export type EnsureAccountOptions = {
  /**
   * May the balance go below zero? Defaults: system accounts yes (the house, the bonus pool and
   * chain clearing are the counter-side of money entering the books), a user's fee balance yes
   * (trading fees are charged after the fact and may push it ≤ 0, which dries the user's bots),
   * every other user balance no.
   */
  allowNegative?: boolean;
};

const defaultAllowNegative = (code: string): boolean => {
  const parsed = parseAccountCode(code);
  return parsed.kind === 'system' || parsed.subBalance === 'fee';
};

/**
 * The account with this code, created on first use. Race-free: concurrent callers insert with
 * ON CONFLICT DO NOTHING and all read the one row. An existing account keeps its settings.
 */
export const ensureAccount = async (
  prisma: PrismaClient,
  code: string,
  options: EnsureAccountOptions = {},
): Promise<LedgerAccount> => {
  const parsed = parseAccountCode(code);
  await prisma.ledgerAccount.createMany({
    data: [
      {
        code,
        kind: parsed.kind,
        userId: parsed.kind === 'user' ? parsed.userId : null,
        subBalance: parsed.kind === 'user' ? parsed.subBalance : null,
        allowNegative: options.allowNegative ?? defaultAllowNegative(code),
      },
    ],
    skipDuplicates: true,
  });
  return prisma.ledgerAccount.findUniqueOrThrow({ where: { code } });
};
