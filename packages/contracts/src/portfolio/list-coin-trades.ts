import { z } from 'zod';
import {
  defineEndpoint,
  ZCursor,
  ZDecimal,
  ZIsoDateTime,
  ZNextCursor,
  ZPage,
  ZPct,
  ZSignedUsdt,
  ZUsdt,
} from '../core';
import { documented } from '../errors';
import { ZOrderOnBook } from './coin-bot';
import { ZCoinBotId } from './coin-settings';

export const ZFill = z.object({
  side: z.enum(['buy', 'sell']),
  kind: z.enum(['entry', 'averaging', 'take_profit', 'market_sell']),
  orderId: z.string().describe('exchange order id'),
  clientOrderId: z.string(),
  price: ZDecimal.describe('average fill price'),
  quantity: ZDecimal,
  quoteAmount: ZUsdt.describe('price × quantity'),
  fee: ZUsdt.describe('exchange fee converted to USDT at the fill price'),
  at: ZIsoDateTime,
});

/** A lot ("deal"): one filled buy and, once closed, the take profit that sold it. */
export const ZDeal = z.object({
  lotId: z.string(),
  lotNumber: z.number().int().describe('sequence of the lot within the coin bot'),
  status: z.enum(['open', 'closed']),
  quantity: ZDecimal,
  cost: ZUsdt.describe('buy quote amount + buy fee'),
  buy: ZFill,
  sell: ZFill.nullable(),
  takeProfitPrice: ZDecimal.nullable().describe('open lots: the resting sell price, else the planned one'),
  takeProfitOnBook: ZOrderOnBook.nullable().describe(
    'open lots of a running coin: where the take profit stands on the exchange (docs/grid.md#on-the-exchange)',
  ),
  pnl: ZSignedUsdt.describe('closed: proceeds − cost; open: q × last price − cost'),
  pnlPct: ZPct.describe('pnl / cost × 100'),
  tradeFee: ZUsdt.nullable().describe('closed lots: platform fee charged (20 % of positive profit)'),
});
export type Deal = z.output<typeof ZDeal>;

/**
 * Deals of one coin bot (spec `coin_user_id`), read from `data.data`: open lots first (newest,
 * lowest price first), then closed lots by closing time, newest first. Load more by `cursor` (the
 * previous answer's `nextCursor`; docs/decisions.md#lists-paged-by-cursor-issue-22); `page` is kept
 * for compatibility.
 */
export const listCoinTrades = defineEndpoint({
  id: 'portfolio.listCoinTrades',
  method: 'POST',
  path: '/portfolio/trades',
  summary: 'Open and closed deals of a coin bot with their fills',
  tags: ['portfolio'],
  auth: true,
  rateLimit: { max: 1, windowMs: 1000 },
  query: z.object({
    coin_user_id: ZCoinBotId,
    status: z.enum(['open', 'closed', 'all']).default('all'),
    page: ZPage,
    limit: z.coerce.number().int().min(1).max(300).default(50),
    cursor: ZCursor,
  }),
  response: z.object({
    data: z.array(ZDeal),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    hasMore: z.boolean(),
    nextCursor: ZNextCursor,
  }),
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    404: documented('COIN_NOT_FOUND'),
    429: documented('RATE_LIMITED'),
  },
});
