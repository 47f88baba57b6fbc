import { z } from 'zod';
import {
  defineEndpoint,
  MAX_ID,
  ZDecimal,
  ZIdempotencyHeaders,
  ZIdInt,
  ZIsoDateTime,
  ZPct,
  ZSignedUsdt,
  ZUsdt,
} from '../core';
import { documented } from '../errors';
import { ZCoinBotId } from './coin-settings';

/*
 * Deal controls (docs/grid.md#deal-controls): sell one deal now at market, close every deal of a
 * coin, cancel the pending buy. The API records the command; the coin bot's next reconcile carries
 * it out, so a user action never races the engine. A retry with the same Idempotency-Key answers
 * the same command (docs/wallet.md#retries).
 */

export const DEAL_COMMAND_KINDS = ['sell_lot', 'close_all', 'cancel_buy'] as const;
/**
 * pending: recorded, the engine has not finished it. done: carried out. already_sold: every lot it
 * was to sell was sold by its take profit first. already_filled: the buy filled before it could be
 * cancelled. failed: refused (the market stopped trading, the exchange refused the order; `code`
 * says which). expired: not carried out within 2 minutes, nothing was done.
 */
export const DEAL_COMMAND_STATUSES = [
  'pending',
  'done',
  'already_sold',
  'already_filled',
  'failed',
  'expired',
] as const;
export const DEAL_LOT_OUTCOMES = ['sold', 'partly_sold', 'already_sold', 'failed'] as const;

/** The lot number (sequence within the coin bot) in a query. */
export const ZLotNumber = z.coerce.number().int().positive().max(MAX_ID).describe('lot number of the deal');

export const ZDealCommand = z.object({
  id: ZIdInt,
  coinUserId: ZIdInt,
  kind: z.enum(DEAL_COMMAND_KINDS),
  status: z.enum(DEAL_COMMAND_STATUSES),
  code: z.string().nullable().describe('catalogue code of a failed or expired command'),
  lots: z
    .array(z.number().int())
    .describe('lot numbers it sells; cancel_buy: the lot the cancelled buy would have opened'),
  requestedAt: ZIsoDateTime,
  finishedAt: ZIsoDateTime.nullable(),
  result: z
    .object({
      lots: z.array(
        z.object({
          lotNumber: z.number().int(),
          outcome: z.enum(DEAL_LOT_OUTCOMES),
          quantity: ZDecimal.describe('sold at market by this command'),
          pnl: ZSignedUsdt.nullable().describe('the closed deal’s PnL, net of both exchange fees'),
          tradeFee: ZUsdt.nullable().describe('platform fee charged when the deal closed'),
          code: z.string().nullable().describe('catalogue code of a refused sale'),
        }),
      ),
      proceeds: ZUsdt.describe('Σ USDT received for the deals it closed, net of the sell fee'),
      pnl: ZSignedUsdt.describe('Σ PnL of the deals it closed'),
      tradeFee: ZUsdt.describe('Σ platform fee of the deals it closed'),
      boughtQty: ZDecimal.nullable().describe('cancel_buy: what the buy filled before it was cancelled'),
    })
    .nullable()
    .describe('what it did, once finished'),
});
export type DealCommand = z.output<typeof ZDealCommand>;

const commandResponse = z.object({ command: ZDealCommand });

/** What every command call may refuse (and the quote, for the same checks). */
const commandErrors = {
  400: documented('VALIDATION'),
  401: documented('UNAUTHORIZED'),
  404: documented('COIN_NOT_FOUND'),
  409: documented('DEAL_COMMAND_PENDING', 'REQUEST_CONFLICT'),
  422: documented(
    'MARKET_CLOSED',
    'COIN_NOT_LISTED',
    'NO_API_CONNECTION',
    'API_KEY_INVALID',
    'API_KEY_NO_SPOT',
    'API_KEY_ACCOUNT_TYPE',
    'API_KEY_IP_NOT_ALLOWED',
    'API_KEY_TRADING_EXPIRED',
  ),
  429: documented('RATE_LIMITED'),
  502: documented('EXCHANGE_UNAVAILABLE'),
} as const;

const COMMAND_LIMIT = { max: 1, windowMs: 1000 };
const invalidates = [
  'portfolio.listDealCommands',
  'portfolio.listCoinTrades',
  'portfolio.listCoinActivity',
  'portfolio.getCoin',
  'portfolio.getCoinChart',
  'portfolio.getPortfolio',
  'home.getPanel',
] as const;

/** What the three command calls share: signed in, one a second, an Idempotency-Key, the command back. */
const commandCall = {
  tags: ['portfolio'],
  auth: true,
  rateLimit: COMMAND_LIMIT,
  headers: ZIdempotencyHeaders,
  response: commandResponse,
  invalidates,
} as const;

/** Sell one open deal now at market: its take profit is cancelled, then the lot sold. */
export const sellDeal = defineEndpoint({
  id: 'portfolio.sellDeal',
  method: 'POST',
  path: '/portfolio/deals/sell',
  summary: 'Sell one open deal now at market (carried out by the next reconcile)',
  ...commandCall,
  query: z.object({ coin_user_id: ZCoinBotId, lot: ZLotNumber }),
  errors: {
    ...commandErrors,
    404: documented('COIN_NOT_FOUND', 'DEAL_NOT_FOUND'),
    409: documented('DEAL_ALREADY_SOLD', 'DEAL_COMMAND_PENDING', 'REQUEST_CONFLICT'),
    422: `${commandErrors[422]} | ${documented('DEAL_BELOW_EXCHANGE_MIN')}`,
  },
});

/** Sell every open deal of the coin now at market (those the exchange would take as an order). */
export const closeAllDeals = defineEndpoint({
  id: 'portfolio.closeAllDeals',
  method: 'POST',
  path: '/portfolio/deals/close_all',
  summary: 'Close every open deal of a coin at market (carried out by the next reconcile)',
  ...commandCall,
  query: z.object({ coin_user_id: ZCoinBotId }),
  errors: {
    ...commandErrors,
    409: documented('NO_OPEN_DEALS', 'DEAL_COMMAND_PENDING', 'REQUEST_CONFLICT'),
    422: `${commandErrors[422]} | ${documented('DEAL_BELOW_EXCHANGE_MIN')}`,
  },
});

/** Cancel the resting buy; the coin turns dry (its own flag), so it is not placed again. */
export const cancelPendingBuy = defineEndpoint({
  id: 'portfolio.cancelPendingBuy',
  method: 'POST',
  path: '/portfolio/deals/cancel_buy',
  summary: 'Cancel the pending buy and stop buying (dry) until the coin is set active again',
  ...commandCall,
  query: z.object({ coin_user_id: ZCoinBotId }),
  errors: {
    ...commandErrors,
    409: documented('NO_PENDING_BUY', 'DEAL_COMMAND_PENDING', 'REQUEST_CONFLICT'),
  },
});

/** A coin bot's recent deal commands, newest first: the pending one and how the last ones ended. */
export const listDealCommands = defineEndpoint({
  id: 'portfolio.listDealCommands',
  method: 'GET',
  path: '/portfolio/deals/commands',
  summary: "A coin bot's recent deal commands, newest first",
  tags: ['portfolio'],
  auth: true,
  rateLimit: COMMAND_LIMIT,
  query: z.object({ coin_user_id: ZCoinBotId }),
  response: z.object({ commands: z.array(ZDealCommand).describe('at most 10') }),
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    404: documented('COIN_NOT_FOUND'),
    429: documented('RATE_LIMITED'),
  },
});

export const ZDealQuoteLot = z.object({
  lotNumber: z.number().int(),
  quantity: ZDecimal.describe('what a market sell would send: the lot on the exchange’s lot step'),
  cost: ZUsdt.describe('the cost of that quantity (buy fee included)'),
  expectedProceeds: ZUsdt.describe('quantity × price, less the exchange fee'),
  expectedPnl: ZSignedUsdt.describe('the deal’s PnL if sold at the price (earlier sold parts included)'),
  expectedPnlPct: ZPct,
  expectedTradeFee: ZUsdt.describe('the platform fee on that PnL'),
  sellable: z.boolean().describe('false: below the exchange minimum at this price'),
});

/** What selling now would bring, from the best bid: an estimate, shown before the user confirms. */
export const quoteDealSale = defineEndpoint({
  id: 'portfolio.quoteDealSale',
  method: 'GET',
  path: '/portfolio/deals/quote',
  summary: 'Expected proceeds and PnL of selling one deal (or every deal) now at market',
  tags: ['portfolio'],
  auth: true,
  rateLimit: COMMAND_LIMIT,
  query: z.object({ coin_user_id: ZCoinBotId, lot: ZLotNumber.optional().describe('omit: every open deal') }),
  response: z.object({
    coinUserId: ZIdInt,
    coin: z.string(),
    symbol: z.string(),
    price: ZDecimal.describe('best bid, else the last price'),
    priceSource: z.enum(['bid', 'last']),
    feePct: ZPct.describe('the exchange fee the estimate assumes'),
    minNotional: ZDecimal.nullable().describe('the smallest order the market takes, USDT'),
    lots: z.array(ZDealQuoteLot),
    totals: z.object({
      quantity: ZDecimal,
      expectedProceeds: ZUsdt,
      expectedPnl: ZSignedUsdt,
      expectedTradeFee: ZUsdt,
    }),
    quotedAt: ZIsoDateTime,
  }),
  errors: {
    ...commandErrors,
    404: documented('COIN_NOT_FOUND', 'DEAL_NOT_FOUND'),
    409: documented('DEAL_ALREADY_SOLD'),
  },
});
