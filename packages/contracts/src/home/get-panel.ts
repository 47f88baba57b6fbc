import { z } from 'zod';
import { defineEndpoint, ZDecimal, ZIdInt, ZIsoDate, ZIsoDateTime, ZPct, ZSignedUsdt, ZUsdt } from '../core';
import { documented } from '../errors';
import { ZCoinError, ZCoinState, ZDryReason, ZPlanOnBook, ZRunReturn } from '../portfolio/coin-bot';
import { ZExchange } from '../profile/exchange-keys';
import { ZTradingBlocker } from './trading-state';

export const ZPanelCoin = z.object({
  coinUserId: ZIdInt,
  coin: z.string(),
  exchange: ZExchange.describe('the exchange the coin bot trades on'),
  running: z.boolean(),
  dry: z.boolean(),
  state: ZCoinState,
  dryReason: ZDryReason.nullable(),
  lastPrice: ZDecimal.nullable(),
  openDeals: z.number().int(),
  maxTrades: z.number().int(),
  pnlToday: ZSignedUsdt.describe('realized since 00:00 UTC'),
  realizedPnl: ZSignedUsdt.describe('all time'),
  unrealizedPnl: ZSignedUsdt,
  lastError: ZCoinError.nullable(),
  book: ZPlanOnBook.describe("whether the coin's planned orders rest on the exchange"),
});

/**
 * Main trading panel (the raised centre tab), polled at most every 2 s: overall PnL, switches,
 * coins, licence and fee balance, and what blocks trading.
 */
export const getPanel = defineEndpoint({
  id: 'home.getPanel',
  method: 'POST',
  path: '/home/',
  summary: 'Main trading panel',
  tags: ['home'],
  auth: true,
  rateLimit: { max: 1, windowMs: 2000 },
  response: z.object({
    pnl: z.object({
      today: ZSignedUsdt.describe('realized since 00:00 UTC, every coin bot, removed ones included'),
      todayDate: ZIsoDate.describe('the UTC day `today` is'),
      todayPct: ZPct.describe('today / committed capital × 100'),
      total: ZSignedUsdt.describe('realized, all time, every coin bot, removed ones included'),
      unrealized: ZSignedUsdt,
      run: ZRunReturn.describe('since the first start of any coin bot; total over committed capital'),
    }),
    running: z.boolean().describe('at least one coin is running'),
    allRunning: z.boolean(),
    dryAll: z.boolean(),
    openDeals: z.number().int(),
    committedCapital: ZUsdt,
    coins: z.array(ZPanelCoin),
    license: z.object({
      level: z.string(),
      activeUntil: ZIsoDateTime,
      expired: z.boolean(),
      daysLeft: z.number().int(),
      balanceLimit: ZUsdt,
      coinsLimit: z.number().int(),
      renewalAvailable: z.boolean(),
    }),
    feeBalance: ZSignedUsdt.describe('may be ≤ 0 after fees: then bots go dry until topped up'),
    exchange: z.object({
      name: z.string().nullable().describe('null without API keys'),
      connected: z.boolean().describe('last key check succeeded'),
    }),
    blockers: z.array(ZTradingBlocker).describe('empty when trading can start'),
    updatedAt: ZIsoDateTime,
  }),
  errors: { 401: documented('UNAUTHORIZED'), 429: documented('RATE_LIMITED') },
});
