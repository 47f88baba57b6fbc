import { createExportLink } from '@gridbot/contracts';
import { createExportLink as createLink, type ExportRequest } from '@gridbot/services';
import type { z } from 'zod';
import { handle } from '../../handle';

type LinkQuery = z.output<(typeof createExportLink)['query']>;

/** The contract's flat query as the one file it names (the contract refused fields of other files). */
const requestOf = (query: LinkQuery): ExportRequest => {
  if (query.file === 'deals') return { file: 'deals', coinBotId: query.coin_user_id };
  if (query.file === 'pnl_daily') return { file: 'pnl_daily', by: query.by ?? 'day' };
  return { file: 'wallet', type: query.type };
};

export const createExportLinkHandler = handle(createExportLink, (ctx, { query, session }) =>
  createLink(ctx, { userId: session.userId, uid: session.uid, request: requestOf(query) }),
);
