import { z } from 'zod';
import { defineEndpoint, ZDecimal, ZSignedDecimal, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZExchange } from '../profile/exchange-keys';
import { ZPriceTick } from './coin-bot';

export const ZAddableCoin = z.object({
  coin: z.string(),
  symbol: z.string().describe('exchange market, e.g. SOL/USDT'),
  lastPrice: ZDecimal.nullable(),
  priceTick: ZPriceTick,
  change24hPct: ZSignedDecimal.nullable().describe('24 h price change, %'),
  quoteVolume24h: ZUsdt.nullable().describe('24 h volume in USDT, for sorting'),
  minOrderUsdt: ZUsdt.nullable().describe("the market's minimum order (notional) on the exchange"),
  maxOpenOrders: z
    .number()
    .int()
    .nullable()
    .describe("the market's MAX_NUM_ORDERS: open orders per account, the purchase limit's ceiling"),
  inPortfolio: z.boolean().describe('already in the portfolio on this exchange'),
});
export type AddableCoin = z.output<typeof ZAddableCoin>;

/**
 * Add-token screen: the spot markets `<COIN>/USDT` open on the user's exchange, most traded first.
 * Without API keys the operator's default exchange is listed (`keysConnected` false).
 */
export const listAddableCoins = defineEndpoint({
  id: 'portfolio.listAddableCoins',
  method: 'GET',
  path: '/portfolio/add_coin',
  summary: 'Coins that can be added: USDT spot markets of the exchange',
  tags: ['portfolio'],
  auth: true,
  query: z.object({
    search: z.string().trim().toUpperCase().max(15).optional().describe('coin symbol prefix filter'),
    exchange: ZExchange.optional().describe(
      "whose markets: one of the user's exchange accounts (default: the first keys saved)",
    ),
  }),
  response: z.object({
    exchange: ZExchange.describe('the exchange listed'),
    accounts: z
      .array(ZExchange)
      .describe('the exchanges the user has keys on, in the order saved (the screen offers each)'),
    quote: z.literal('USDT'),
    keysConnected: z.boolean(),
    coinsUsed: z.number().int(),
    coinsLimit: z.number().int(),
    coins: z.array(ZAddableCoin),
  }),
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    502: documented('EXCHANGE_UNAVAILABLE'),
  },
});
