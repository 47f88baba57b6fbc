import type { DealCommand as DealCommandView } from '@gridbot/contracts';
import type { DealCommand } from '@gridbot/db';
import { usdtFigure } from '@gridbot/domain';

type Result = NonNullable<DealCommandView['result']>;

/** USDT figures are stored exact (18 decimals) and shown to the micro-USDT (docs/pnl.md#shown-figures). */
const shown = (result: Result): Result => ({
  ...result,
  lots: result.lots.map((lot) => ({ ...lot, pnl: lot.pnl === null ? null : usdtFigure(lot.pnl) })),
  proceeds: usdtFigure(result.proceeds),
  pnl: usdtFigure(result.pnl),
});

/** A deal command as the API shows it (docs/grid.md#deal-controls). */
export const dealCommandView = (row: DealCommand): DealCommandView => ({
  id: row.id,
  coinUserId: row.coinBotId,
  kind: row.kind as DealCommandView['kind'],
  status: row.status as DealCommandView['status'],
  code: row.code,
  lots: row.lotSeqs,
  requestedAt: row.createdAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
  result: row.result ? shown(row.result as Result) : null,
});
