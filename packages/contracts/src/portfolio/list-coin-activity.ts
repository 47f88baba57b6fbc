import { z } from 'zod';
import { defineEndpoint, MAX_BIG_ID, ZIsoDateTime } from '../core';
import { documented } from '../errors';
import { ZCoinBotId } from './coin-settings';

/** What can happen to a coin bot (docs/grid.md#activity-log); the table's CHECK lists the same. */
export const ACTIVITY_KINDS = [
  'order_placed',
  'order_filled',
  'order_cancelled',
  'order_rejected',
  'started',
  'paused',
  'dry_on',
  'dry_off',
  'settings_changed',
  'keys_changed',
  'restart_summary',
  'coin_added',
  'settings_reset',
  'coin_removed',
  'market_closed',
  'market_reopened',
  'deal_sale_requested',
  'buy_cancel_requested',
  'deal_command_done',
] as const;

/** Who caused an activity. */
export const ACTIVITY_ACTORS = ['user', 'engine', 'license', 'fee_balance', 'exchange', 'operator'] as const;

/** One line of a coin's activity log (docs/grid.md#activity-log). */
export const ZCoinActivityEntry = z.object({
  id: z.string().describe('entry id, also the cursor of the next page'),
  at: ZIsoDateTime,
  kind: z.enum(ACTIVITY_KINDS),
  actor: z.enum(ACTIVITY_ACTORS),
  data: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('kind-specific facts: order key, side, price, qty, the exchange code and message, counts…'),
});

/**
 * The coin screen's activity log of one coin bot (spec `coin_user_id`), newest first. `cursor` is
 * the `nextCursor` of the previous page (load more); another user's coin bot is COIN_NOT_FOUND.
 */
export const listCoinActivity = defineEndpoint({
  id: 'portfolio.listCoinActivity',
  method: 'GET',
  path: '/portfolio/activity',
  summary: "A coin bot's activity log, newest first",
  tags: ['portfolio'],
  auth: true,
  query: z.object({
    coin_user_id: ZCoinBotId,
    cursor: z
      .string()
      .regex(/^\d{1,19}$/)
      .refine(
        (cursor) => !/^\d{1,19}$/.test(cursor) || BigInt(cursor) <= MAX_BIG_ID,
        'must be an activity id',
      )
      .optional()
      .describe('nextCursor of the previous page'),
    limit: z.coerce.number().int().min(1).max(100).default(50),
  }),
  response: z.object({
    data: z.array(ZCoinActivityEntry),
    nextCursor: z.string().nullable().describe('null on the last page'),
  }),
  errors: {
    400: documented('VALIDATION'),
    401: documented('UNAUTHORIZED'),
    404: documented('COIN_NOT_FOUND'),
  },
});
