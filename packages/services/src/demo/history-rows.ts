import type { CoinBot, Prisma } from '@gridbot/db';
import {
  allocateCandles,
  buyOrderKey,
  CLOSE,
  entryOrderKey,
  HIGH,
  LOW,
  OPEN,
  type ReplayFill,
  setCandlePrice,
  takeProfitOrderKey,
} from '@gridbot/domain';
import type { ExchangeTrade } from '@gridbot/exchange';
import type Decimal from 'decimal.js';
import type { DemoPastCandle } from './seed-demo-history';

/** The demo history's rows (seed-demo-history.ts): candles in, exchange trades and order rows out. */

export const seriesOf = (candles: DemoPastCandle[]) => {
  const series = allocateCandles(candles.length);
  candles.forEach((c, i) => {
    series.time[i] = c.time;
    setCandlePrice(series, i, OPEN, c.open);
    setCandlePrice(series, i, HIGH, c.high);
    setCandlePrice(series, i, LOW, c.low);
    setCandlePrice(series, i, CLOSE, c.close);
  });
  return series;
};

/** The exchange trade a replayed fill would have been, on the market's grid; Binance's fee rules. */
export type Market = { base: string; quote: string; tick: Decimal; step: Decimal; fee: Decimal };

const orderKey = (fill: ReplayFill, seq: number) =>
  fill.role === 'entry'
    ? entryOrderKey(seq)
    : fill.role === 'averaging'
      ? buyOrderKey(seq)
      : takeProfitOrderKey(seq);

/** The exchange trade a replayed fill would have been: Binance charges the fee in the asset received. */
export const tradeOf = (
  bot: CoinBot,
  market: Market,
  fill: ReplayFill,
  id: string,
  price: Decimal,
  amount: Decimal,
): ExchangeTrade => {
  const buy = fill.side === 'buy';
  const cost = amount.times(price);
  const fee = buy ? amount.times(market.fee) : cost.times(market.fee);
  return {
    id,
    orderId: id,
    clientOrderId: null,
    symbol: bot.symbol,
    side: fill.side,
    price,
    amount,
    cost,
    fee: { cost: fee, currency: buy ? market.base : market.quote },
    feeQuote: buy ? fee.times(price) : fee,
    takerOrMaker: fill.role === 'entry' ? 'taker' : 'maker',
    timestamp: new Date(fill.time).getTime(),
  };
};

/** Our order row of a replayed fill, filled, created when it filled. */
export const orderRow = (
  bot: CoinBot,
  fill: ReplayFill,
  seq: number,
  trade: ExchangeTrade,
): Prisma.OrderCreateManyInput => {
  const entry = fill.role === 'entry';
  return {
    coinBotId: bot.id,
    clientOrderId: `demo-${trade.id}`,
    exchangeOrderId: trade.orderId,
    key: orderKey(fill, seq),
    role: fill.role,
    side: fill.side,
    type: entry ? 'market' : 'limit',
    symbol: bot.symbol,
    price: entry ? null : trade.price.toString(),
    qty: entry ? null : trade.amount.toString(),
    quoteAmount: fill.side === 'buy' ? bot.orderSize.toString() : null,
    lotSeq: seq,
    attempt: 1,
    status: 'filled',
    filledQty: trade.amount.toString(),
    createdAt: new Date(trade.timestamp),
  };
};
