import { z } from 'zod';
import { ZIdInt } from '../core';
import { ZCoinState, ZDryReason } from '../portfolio/coin-bot';
import { ZExchange } from '../profile/exchange-keys';

/**
 * Why trading cannot start (or why bots are forced dry), as catalogue codes so the client shows
 * the catalogue text. Listed on the panel before the user presses start.
 */
export const ZTradingBlocker = z.enum([
  'NO_API_CONNECTION',
  'EXCHANGE_BALANCE_ZERO',
  'FEE_BALANCE_EMPTY',
  'LICENSE_EXPIRED',
  'LICENSE_BALANCE_LIMIT',
  'COIN_LIMIT',
]);
export type TradingBlocker = z.output<typeof ZTradingBlocker>;

export const ZCoinSwitches = z.object({
  coinUserId: ZIdInt,
  coin: z.string(),
  exchange: ZExchange.describe('the exchange the coin bot trades on'),
  running: z.boolean(),
  dry: z.boolean().describe("the coin's own dry flag"),
  state: ZCoinState,
  dryReason: ZDryReason.nullable(),
});

/** Answer of every start/pause/dry/activate call: the switches after the change. */
export const ZTradingState = z.object({
  running: z.boolean().describe('at least one coin is running'),
  allRunning: z.boolean(),
  dryAll: z.boolean().describe('global drying mode'),
  coins: z.array(ZCoinSwitches),
  blockers: z.array(ZTradingBlocker),
});
export type TradingState = z.output<typeof ZTradingState>;
