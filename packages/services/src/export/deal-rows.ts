import type { Deal } from '@gridbot/contracts';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { cursorPages } from '../paging/keyset-cursor';
import { listPortfolioCoinTrades } from '../portfolio/list-coin-trades';
import type { CsvColumn } from './csv';

/** A coin bot as the deals file names it. */
type DealBot = { id: number; coin: string; symbol: string; exchange: string };
export type DealRow = { bot: DealBot; deal: Deal };

/** Deals per read: the deals list's own service, a few of its pages at once. */
const DEALS_PER_READ = 250;

/**
 * The deals file (docs/product.md#exports): one line per lot, every figure as the deals list
 * shows it (`listPortfolioCoinTrades`, the service of `POST /portfolio/trades`). Fees are the
 * exchange's, converted to USDT at the fill price as the fills store them.
 */
export const DEAL_COLUMNS: readonly CsvColumn<DealRow>[] = [
  { name: 'lot_number', kind: 'number', value: (r) => r.deal.lotNumber },
  { name: 'coin', kind: 'text', value: (r) => r.bot.coin },
  { name: 'symbol', kind: 'text', value: (r) => r.bot.symbol },
  { name: 'exchange', kind: 'text', value: (r) => r.bot.exchange },
  { name: 'status', kind: 'text', value: (r) => r.deal.status },
  { name: 'opened_at', kind: 'instant', value: (r) => r.deal.buy.at },
  { name: 'closed_at', kind: 'instant', value: (r) => r.deal.sell?.at },
  { name: 'buy_price', kind: 'number', value: (r) => r.deal.buy.price },
  { name: 'quantity', kind: 'number', value: (r) => r.deal.quantity },
  { name: 'buy_amount', kind: 'number', value: (r) => r.deal.buy.quoteAmount },
  { name: 'buy_fee', kind: 'number', value: (r) => r.deal.buy.fee },
  { name: 'cost', kind: 'number', value: (r) => r.deal.cost },
  { name: 'sell_price', kind: 'number', value: (r) => r.deal.sell?.price },
  { name: 'sell_quantity', kind: 'number', value: (r) => r.deal.sell?.quantity },
  { name: 'proceeds', kind: 'number', value: (r) => r.deal.sell?.quoteAmount },
  { name: 'sell_fee', kind: 'number', value: (r) => r.deal.sell?.fee },
  { name: 'fee_asset', kind: 'text', value: () => 'USDT' },
  { name: 'take_profit_price', kind: 'number', value: (r) => r.deal.takeProfitPrice },
  { name: 'platform_fee', kind: 'number', value: (r) => r.deal.tradeFee },
  { name: 'realized_pnl', kind: 'number', value: (r) => (r.deal.status === 'closed' ? r.deal.pnl : null) },
  { name: 'unrealized_pnl', kind: 'number', value: (r) => (r.deal.status === 'open' ? r.deal.pnl : null) },
  { name: 'pnl_pct', kind: 'number', value: (r) => r.deal.pnlPct },
  { name: 'buy_order_id', kind: 'text', value: (r) => r.deal.buy.orderId || null },
  { name: 'sell_order_id', kind: 'text', value: (r) => r.deal.sell?.orderId || null },
];

/**
 * The coin bots a deals file covers: the one named (removed ones too: their deals stay), else all
 * the user's, by coin. Another user's coin bot is COIN_NOT_FOUND, as on the deals list.
 */
export const dealBots = async (
  ctx: ServiceContext,
  input: { userId: number; coinBotId?: number | undefined },
): Promise<DealBot[]> => {
  const bots = await ctx.prisma.coinBot.findMany({
    where: { userId: input.userId, ...(input.coinBotId === undefined ? {} : { id: input.coinBotId }) },
    select: { id: true, coin: true, symbol: true, exchangeAccount: { select: { exchange: true } } },
    orderBy: [{ coin: 'asc' }, { id: 'asc' }],
  });
  if (input.coinBotId !== undefined && bots.length === 0) throw new AppError('COIN_NOT_FOUND');
  return bots.map((bot) => ({
    id: bot.id,
    coin: bot.coin,
    symbol: bot.symbol,
    exchange: bot.exchangeAccount.exchange,
  }));
};

/**
 * A coin bot's deals as the deals list orders them, open ones first: the open lots (at most the
 * purchase limit) then the closed ones, newest first. A lot that closes while the file is written
 * stays in it once, as the open deal it was when read.
 */
async function* dealsOfBot(
  ctx: ServiceContext,
  userId: number,
  bot: DealBot,
): AsyncGenerator<readonly DealRow[]> {
  const read = (status: 'open' | 'closed') =>
    cursorPages((cursor) =>
      listPortfolioCoinTrades(ctx, {
        userId,
        coinBotId: bot.id,
        status,
        page: 1,
        limit: DEALS_PER_READ,
        cursor,
      }).then((answer) => ({ items: answer.data, nextCursor: answer.nextCursor })),
    );
  const open = new Set<string>();
  for await (const deals of read('open')) {
    for (const deal of deals) open.add(deal.lotId);
    yield deals.map((deal) => ({ bot, deal }));
  }
  for await (const deals of read('closed')) {
    yield deals.filter((deal) => !open.has(deal.lotId)).map((deal) => ({ bot, deal }));
  }
}

export async function* dealRows(
  ctx: ServiceContext,
  userId: number,
  bots: readonly DealBot[],
): AsyncGenerator<readonly DealRow[]> {
  for (const bot of bots) yield* dealsOfBot(ctx, userId, bot);
}
