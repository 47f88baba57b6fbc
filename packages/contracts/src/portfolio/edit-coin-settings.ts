import { z } from 'zod';
import { defineEndpoint, ZPct } from '../core';
import { documented } from '../errors';
import { ZLadder, ZPortfolioCoin } from './coin-bot';
import { ZCoinSettingsInput } from './coin-settings';

/**
 * A level of the previewed ladder the exchange would refuse (docs/grid.md#exchange-filters): its
 * PERCENT_PRICE_BY_SIDE band puts the averaging buy opening `lotNumber` (and every deeper one)
 * too far below the price. The text is the catalogue's for `code`.
 */
export const ZSettingsWarning = z.object({
  code: z.literal('DEEPEST_BUY_BELOW_EXCHANGE_PRICE_LIMIT'),
  lotNumber: z
    .number()
    .int()
    .describe(
      'the first deal of the purchase limit (k + 1, not a lot number) whose averaging buy the exchange would refuse',
    ),
  stepPct: ZPct.describe("that buy's drop below the lot before it, %"),
  maxStepPct: ZPct.describe(
    'the largest drop below the price the exchange accepts for a buy on this market, %',
  ),
});
export type SettingsWarning = z.output<typeof ZSettingsWarning>;

/**
 * Edit-token screen. New settings apply to open deals too: the ladder is re-planned and resting
 * orders replaced. With `preview: true` nothing is saved and the re-planned ladder comes back, so
 * the screen can show it before the user confirms (docs/grid.md).
 */
export const editCoinSettings = defineEndpoint({
  id: 'portfolio.editCoinSettings',
  method: 'POST',
  path: '/portfolio/setting/edit',
  summary: "Change a coin's grid settings (or preview the new ladder)",
  tags: ['portfolio'],
  auth: true,
  body: ZCoinSettingsInput,
  response: z.object({
    saved: z.boolean(),
    coin: ZPortfolioCoin,
    ladder: ZLadder,
    warnings: z
      .array(ZSettingsWarning)
      .describe(
        'what the exchange would refuse with these settings; a preview shows it, a save is refused instead',
      ),
  }),
  invalidates: [
    'portfolio.getCoin',
    'portfolio.getCoinChart',
    'portfolio.getPortfolio',
    'home.getPanel',
    'portfolio.listCoinActivity',
  ],
  errors: {
    400: documented('VALIDATION', 'EXCHANGE_REQUIRED'),
    401: documented('UNAUTHORIZED'),
    404: documented('COIN_NOT_FOUND'),
    422: documented(
      'LICENSE_BALANCE_LIMIT',
      'ORDER_BELOW_EXCHANGE_MIN',
      'MAX_TRADES_ABOVE_EXCHANGE_LIMIT',
      'DEEPEST_BUY_BELOW_EXCHANGE_PRICE_LIMIT',
    ),
    502: documented('EXCHANGE_UNAVAILABLE'),
  },
});
