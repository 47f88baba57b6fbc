import type { Prisma } from '@gridbot/db';
import type { BonusUpline } from '@gridbot/domain';
import { licenseStatusOf } from '../license/user-license';

type Tx = Pick<Prisma.TransactionClient, 'user'>;

/**
 * The three uplines of a user (sponsor first) with their licence as of `at`: whether it is active
 * and how many matching generations it pays. Null where the line has nobody.
 */
export const bonusUplines = async (tx: Tx, userId: number, at: Date): Promise<Array<BonusUpline | null>> => {
  const uplines: Array<BonusUpline | null> = [];
  let current = await tx.user.findUnique({ where: { id: userId }, select: { sponsorId: true } });
  for (let line = 1; line <= 3; line += 1) {
    const sponsorId = current?.sponsorId ?? null;
    const sponsor =
      sponsorId === null
        ? null
        : await tx.user.findUnique({ where: { id: sponsorId }, include: { license: true } });
    if (!sponsor) {
      uplines.push(null);
      current = null;
      continue;
    }
    const status = licenseStatusOf(sponsor, at);
    uplines.push({
      userId: sponsor.id,
      active: !status.expired,
      matchingGenerations: status.matchingGenerations,
    });
    current = sponsor;
  }
  return uplines;
};
