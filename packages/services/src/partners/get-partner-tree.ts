import type { StructureNode } from '@gridbot/contracts';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { cached, treeFingerprint } from './partner-cache';
import { loadPartners } from './partner-rows';
import { lineBelow } from './partner-tree';

/**
 * The node of the caller's tree to open: the caller (line 0) or a partner of their downline at any
 * depth. Anyone else is PARTNER_NOT_FOUND, so the answer never tells whether a UID exists.
 */
const nodeToOpen = async (
  ctx: ServiceContext,
  input: { userId: number; uid: number; requiredUid?: number },
) => {
  if (input.requiredUid === undefined || input.requiredUid === input.uid)
    return { id: input.userId, line: 0 };
  const node = await lineBelow(ctx.prisma, { viewerId: input.userId, targetUid: input.requiredUid });
  if (!node) throw new AppError('PARTNER_NOT_FOUND');
  return node;
};

/**
 * One level of the partner tree (docs/bonuses.md#structure): the children of `requiredUid`
 * (absent = the caller), oldest registration first, each with its line below the caller, licence,
 * direct partners and team size; their own children load with the next call. `bodyUid`, when
 * sent, must be the caller's own UID.
 */
export const getPartnerTree = async (
  ctx: ServiceContext,
  input: { userId: number; uid: number; requiredUid?: number | undefined; bodyUid?: number | undefined },
): Promise<StructureNode[]> => {
  if (input.bodyUid !== undefined && input.bodyUid !== input.uid) throw new AppError('FORBIDDEN');
  const node = await nodeToOpen(ctx, {
    userId: input.userId,
    uid: input.uid,
    ...(input.requiredUid === undefined ? {} : { requiredUid: input.requiredUid }),
  });
  const key = `partners:tree:${input.userId}:${node.id}:${await treeFingerprint(ctx)}`;
  return cached(ctx, key, async () => {
    const children = await ctx.prisma.user.findMany({
      where: { sponsorId: node.id },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: { id: true },
    });
    const partners = await loadPartners(
      ctx,
      children.map((child) => ({ id: child.id, line: node.line + 1 })),
    );
    return partners.map(({ card }) => {
      const { uid, ...rest } = card;
      return { user_id: uid, ...rest, hasChildren: card.directPartners > 0, children: [] };
    });
  });
};
