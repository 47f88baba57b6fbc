import { listMyPartners } from '@gridbot/contracts';
import { listPartners } from '@gridbot/services';
import { handle } from '../../handle';

export const listMyPartnersHandler = handle(listMyPartners, (ctx, { params, query, session }) =>
  listPartners(ctx, {
    userId: session.userId,
    period: params.period,
    page: query.page,
    limit: query.limit,
    cursor: query.cursor,
    line: query.line,
  }),
);
