import type { ServiceContext } from '../context/service-context';
import { cursorPages } from '../paging/keyset-cursor';
import { type DailyPnlRow, getDailyCoinsPnl, listDailyPnl } from '../pnl/pnl-stats';
import type { CsvColumn } from './csv';

/** Days per read of the PnL statistics service: a year and a day. */
const DAYS_PER_READ = 366;

type CoinOfDay = Awaited<ReturnType<typeof getDailyCoinsPnl>>['coins'][number];
export type PnlCoinRow = { date: string; coin: CoinOfDay };

/** PnL by UTC day (docs/pnl.md#days-and-months): the rows of `GET /home/pnl/daily`. */
export const PNL_DAY_COLUMNS: readonly CsvColumn<DailyPnlRow>[] = [
  { name: 'date', kind: 'instant', value: (r) => r.date },
  { name: 'realized_pnl', kind: 'number', value: (r) => r.realizedPnl },
  { name: 'platform_fee', kind: 'number', value: (r) => r.tradeFee },
  { name: 'closed_trades', kind: 'number', value: (r) => r.closedTrades },
  { name: 'profitable_trades', kind: 'number', value: (r) => r.profitableTrades },
];

/** Each day split per coin: the rows of `GET /home/pnl_daily_coins` for every day of the list. */
export const PNL_COIN_COLUMNS: readonly CsvColumn<PnlCoinRow>[] = [
  { name: 'date', kind: 'instant', value: (r) => r.date },
  { name: 'coin', kind: 'text', value: (r) => r.coin.coin },
  { name: 'realized_pnl', kind: 'number', value: (r) => r.coin.realizedPnl },
  { name: 'platform_fee', kind: 'number', value: (r) => r.coin.tradeFee },
  { name: 'closed_trades', kind: 'number', value: (r) => r.coin.closedTrades },
  { name: 'profitable_trades', kind: 'number', value: (r) => r.coin.profitableTrades },
  { name: 'lots_opened', kind: 'number', value: (r) => r.coin.buys },
];

/** Every day with sales, newest first, as the PnL statistics screen lists them. */
export const pnlDayRows = (ctx: ServiceContext, userId: number): AsyncGenerator<readonly DailyPnlRow[]> =>
  cursorPages((cursor) => listDailyPnl(ctx, { userId, page: 1, limit: DAYS_PER_READ, cursor }));

/** Every day of the list, split per coin as the screen shows a day when it is opened. */
export async function* pnlCoinRows(ctx: ServiceContext, userId: number): AsyncGenerator<PnlCoinRow[]> {
  for await (const days of pnlDayRows(ctx, userId)) {
    for (const day of days) {
      const split = await getDailyCoinsPnl(ctx, { userId, day: day.date });
      yield split.coins.map((coin) => ({ date: split.date, coin }));
    }
  }
}
