import type { quoteDealSale, ResponseOf } from '@gridbot/contracts';
import { DEFAULT_FEE_PCT, exactSum, saleEstimate, tradeFeeMicro, usdtFigure } from '@gridbot/domain';
import { fromMicro } from '@gridbot/ledger';
import Decimal from 'decimal.js';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { lotFromRow } from '../grid/coin-bot-state';
import { pctOf, pctText } from '../portfolio/figures';
import { dealMarket, findDealCoin, sellable, sendableQty } from './deal-market';

type Quote = ResponseOf<typeof quoteDealSale>;

/**
 * What selling one deal (or every open deal) now at market would bring (docs/grid.md#deal-controls):
 * the lot on the exchange's lot step at the best bid (else the last price), less the exchange fee
 * at the default 0.1 %, its PnL with the parts sold before, and the platform fee on it
 * (docs/fees.md#trading-fee). An estimate the user confirms on; it changes nothing.
 */
export const quoteDealSaleNow = async (
  ctx: ServiceContext,
  input: { userId: number; coinBotId: number; lot?: number | undefined },
): Promise<Quote> => {
  const bot = await findDealCoin(ctx, input);
  const rows = await ctx.prisma.lot.findMany({
    where: { coinBotId: bot.id, ...(input.lot === undefined ? { closedAt: null } : { seq: input.lot }) },
    orderBy: { seq: 'desc' },
  });
  if (input.lot !== undefined) {
    if (rows.length === 0) throw new AppError('DEAL_NOT_FOUND');
    if (rows[0]?.closedAt) throw new AppError('DEAL_ALREADY_SOLD');
  }
  const deal = await dealMarket(ctx, bot);
  let quantity = new Decimal(0);
  let proceeds = new Decimal(0);
  let pnl = new Decimal(0);
  let fee = 0n;
  const lots = rows.map((row) => {
    const qty = sendableQty(deal.client, bot.symbol, row);
    const sale = saleEstimate(lotFromRow(row), qty, deal.price, DEFAULT_FEE_PCT);
    const tradeFee = tradeFeeMicro(sale.pnl);
    const ok = sellable(deal, bot.symbol, qty);
    if (ok) {
      quantity = exactSum(quantity, qty);
      proceeds = exactSum(proceeds, sale.proceeds);
      pnl = exactSum(pnl, sale.pnl);
      fee += tradeFee;
    }
    return {
      lotNumber: row.seq,
      quantity: qty.toFixed(),
      cost: usdtFigure(sale.cost),
      expectedProceeds: usdtFigure(sale.proceeds),
      expectedPnl: usdtFigure(sale.pnl),
      expectedPnlPct: pctText(pctOf(sale.pnl, lotFromRow(row).cost)),
      expectedTradeFee: fromMicro(tradeFee),
      sellable: ok,
    };
  });
  return {
    coinUserId: bot.id,
    coin: bot.coin,
    symbol: bot.symbol,
    price: deal.price.toFixed(),
    priceSource: deal.priceSource,
    feePct: DEFAULT_FEE_PCT.toFixed(),
    minNotional: deal.market.minNotional?.toFixed() ?? null,
    lots,
    totals: {
      quantity: quantity.toFixed(),
      expectedProceeds: usdtFigure(proceeds),
      expectedPnl: usdtFigure(pnl),
      expectedTradeFee: fromMicro(fee),
    },
    quotedAt: ctx.clock.now().toISOString(),
  };
};
