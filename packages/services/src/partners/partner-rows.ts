import type { ZPartnerRow } from '@gridbot/contracts';
import type { LicenseLevel, User } from '@gridbot/db';
import { fromMicro } from '@gridbot/ledger';
import type { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { licenseStatusOf } from '../license/user-license';
import { ownPurchases, type TeamSize, teamSizes, tradingUsers } from './partner-tree';

export type PartnerRow = z.output<typeof ZPartnerRow>;
type UserWithLicense = User & { license: LicenseLevel };

/** A user as every partner view shows them: who, line, licence, registration, team. */
export const partnerCard = (user: UserWithLicense, line: number, size: TeamSize, now: Date) => ({
  uid: user.uid,
  username: user.username,
  firstName: user.firstName,
  line,
  licenseLevel: user.licenseLevel,
  licenseActive: !licenseStatusOf(user, now).expired,
  registeredAt: user.createdAt.toISOString(),
  directPartners: size.directPartners,
  teamSize: size.teamSize,
});

/** The users of `rows` with their licence and team sizes, in the order of `rows`. */
export const loadPartners = async (ctx: ServiceContext, rows: { id: number; line: number }[]) => {
  const ids = rows.map((row) => row.id);
  const [users, sizes] = await Promise.all([
    ctx.prisma.user.findMany({ where: { id: { in: ids } }, include: { license: true } }),
    teamSizes(ctx.prisma, ids),
  ]);
  const byId = new Map(users.map((user) => [user.id, user]));
  const now = ctx.clock.now();
  return rows.flatMap((row) => {
    const user = byId.get(row.id);
    if (!user) return [];
    const size = sizes.get(row.id) ?? { directPartners: 0, teamSize: 0 };
    return [{ user, card: partnerCard(user, row.line, size, now) }];
  });
};

/** List rows (my partners): the card, whether they trade, their own purchases in the period. */
export const partnerRows = async (
  ctx: ServiceContext,
  input: { rows: { id: number; line: number }[]; from: Date; until: Date },
): Promise<PartnerRow[]> => {
  const ids = input.rows.map((row) => row.id);
  const [partners, trading, purchases] = await Promise.all([
    loadPartners(ctx, input.rows),
    tradingUsers(ctx.prisma, ids),
    ownPurchases(ctx.prisma, { ids, from: input.from, until: input.until }),
  ]);
  return partners.map(({ user, card }) => ({
    ...card,
    trading: trading.has(user.id),
    personalVolume: fromMicro(purchases.get(user.id) ?? 0n),
  }));
};
