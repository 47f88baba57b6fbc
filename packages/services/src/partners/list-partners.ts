import type { listMyPartners } from '@gridbot/contracts';
import type { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { keysetPage, pagePosition } from '../paging/keyset-cursor';
import { cachedTeamFigures } from './get-partner-overview';
import { cached, treeFingerprint } from './partner-cache';
import { resolvePartnerPeriod } from './partner-periods';
import { partnerRows } from './partner-rows';
import { partnerPage, ZPartnerKey } from './partner-tree';

type MyPartners = z.output<typeof listMyPartners.response>;

/**
 * My partners for a calendar month (docs/bonuses.md#partner-lists): the month's measures and the
 * partners of lines 1–3 (or one line) registered by the end of it, newest first, load-more paged.
 */
export const listPartners = async (
  ctx: ServiceContext,
  input: {
    userId: number;
    period: string;
    page: number;
    limit: number;
    /** The previous page's nextCursor (docs/decisions.md#lists-paged-by-cursor-issue-22). */
    cursor?: string | undefined;
    line?: number | undefined;
  },
): Promise<MyPartners> => {
  const period = resolvePartnerPeriod(input.period, ctx.clock.now());
  const window = { from: period.from, until: period.until };
  const fingerprint = await treeFingerprint(ctx);
  const position = pagePosition(input, ZPartnerKey);
  const at = input.cursor ?? `p${input.page}`;
  const key = `partners:list:${input.userId}:${period.month}:${input.line ?? 'all'}:${at}:${input.limit}`;
  const [figures, partners] = await Promise.all([
    cachedTeamFigures(ctx, { userId: input.userId, month: period.month, ...window, fingerprint }),
    cached(ctx, `${key}:${fingerprint}`, async () => {
      const page = await partnerPage(ctx.prisma, {
        viewerId: input.userId,
        line: input.line,
        until: period.until,
        limit: input.limit + 1,
        ...position,
      });
      const { rows, nextCursor } = keysetPage(page.rows, input.limit, (row) => [
        row.createdAt.toISOString(),
        row.id,
      ]);
      return {
        items: await partnerRows(ctx, { rows, ...window }),
        page: input.page,
        limit: input.limit,
        total: page.total,
        hasMore: nextCursor !== null,
        nextCursor,
      };
    }),
  ]);
  return {
    period: input.period,
    month: period.month,
    range: period.range,
    measures: figures.measures,
    partners,
  };
};
