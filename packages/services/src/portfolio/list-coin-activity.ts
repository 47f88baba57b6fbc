import type { listCoinActivity } from '@gridbot/contracts';
import type { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';

export type CoinActivityPage = z.input<(typeof listCoinActivity)['response']>;

/** A coin bot's activity log, newest first, `limit` entries before `cursor` (docs/grid.md#activity-log). */
export const listPortfolioCoinActivity = async (
  ctx: ServiceContext,
  input: { userId: number; coinBotId: number; cursor?: string | undefined; limit: number },
): Promise<CoinActivityPage> => {
  const bot = await ctx.prisma.coinBot.findFirst({
    where: { id: input.coinBotId, userId: input.userId },
    select: { id: true },
  });
  if (!bot) throw new AppError('COIN_NOT_FOUND');
  const rows = await ctx.prisma.coinActivity.findMany({
    where: { coinBotId: bot.id, ...(input.cursor ? { id: { lt: BigInt(input.cursor) } } : {}) },
    orderBy: { id: 'desc' },
    take: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  return {
    data: page.map((r) => ({
      id: r.id.toString(),
      at: r.at.toISOString(),
      kind: r.kind as CoinActivityPage['data'][number]['kind'],
      actor: r.actor as CoinActivityPage['data'][number]['actor'],
      data: (r.data as Record<string, unknown> | null) ?? null,
    })),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id.toString() ?? null) : null,
  };
};
