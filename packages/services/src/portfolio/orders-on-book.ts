import type { OrderOnBook, PlanOnBook } from '@gridbot/contracts';
import { Prisma } from '@gridbot/db';
import {
  type GridFlags,
  orderOnBookStateOf,
  type PlannedOrderKey,
  plannedOrderKeys,
  planOnBookOf,
  refusalReasonOf,
} from '@gridbot/domain';
import type { ServiceContext } from '../context/service-context';

/** The latest of our records for one planner key of a coin bot. */
type LatestRecord = {
  coin_bot_id: number;
  key: string;
  status: string;
  client_order_id: string;
  updated_at: Date | string;
};

/** What a coin bot's plan is made of, for the planner keys alone. */
export type PlanInput = {
  coinBotId: number;
  flags: GridFlags;
  lotSeqs: readonly number[];
  nextSeq: number;
  maxTrades: number;
  /** The coin bot's last refusal (a catalogue code): a refusal's code until its activity entry is written. */
  lastError: string | null;
};

/** One coin bot's planned orders and where each stands on the exchange (docs/grid.md#on-the-exchange). */
export type CoinOrdersOnBook = {
  /** Every planned order by its planner key (`tp:<lot>`, `buy:<lot>`, `entry:<lot>`). */
  orders: ReadonlyMap<string, OrderOnBook>;
  book: PlanOnBook;
};

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : null;

/**
 * Where every planned order of these coin bots stands, from the engine's records only (the
 * exchange is never asked): the latest `orders` row of each planned key — one index probe each —
 * and, for a refused one, the `order_rejected` activity entry that carries the exchange's own code
 * and words (reconcile keys it `order_rejected:<clientOrderId>`, docs/grid.md#activity-log).
 */
export const loadOrdersOnBook = async (
  ctx: ServiceContext,
  coins: readonly PlanInput[],
): Promise<Map<number, CoinOrdersOnBook>> => {
  const planned = new Map<number, PlannedOrderKey[]>(coins.map((c) => [c.coinBotId, plannedOrderKeys(c)]));
  const ids: number[] = [];
  const keys: string[] = [];
  for (const [coinBotId, orders] of planned) {
    for (const order of orders) {
      ids.push(coinBotId);
      keys.push(order.key);
    }
  }
  const latest =
    keys.length === 0
      ? []
      : await ctx.prisma.$queryRaw<LatestRecord[]>(Prisma.sql`
          SELECT p.coin_bot_id, p.key, o.status, o.client_order_id, o.updated_at
            FROM unnest(${ids}::int[], ${keys}::text[]) AS p(coin_bot_id, key)
            CROSS JOIN LATERAL (
              SELECT status, client_order_id, updated_at FROM orders
               WHERE coin_bot_id = p.coin_bot_id AND key = p.key
               ORDER BY id DESC LIMIT 1
            ) o`);
  const recordOf = new Map(latest.map((r) => [`${r.coin_bot_id}:${r.key}`, r]));
  const rejected = latest.filter((r) => r.status === 'rejected');
  const entries =
    rejected.length === 0
      ? []
      : await ctx.prisma.coinActivity.findMany({
          where: {
            coinBotId: { in: [...new Set(rejected.map((r) => r.coin_bot_id))] },
            dedupeKey: { in: rejected.map((r) => `order_rejected:${r.client_order_id}`) },
          },
          select: { coinBotId: true, dedupeKey: true, data: true, at: true },
        });
  const entryOf = new Map(entries.map((e) => [`${e.coinBotId}:${e.dedupeKey}`, e]));

  const result = new Map<number, CoinOrdersOnBook>();
  for (const coin of coins) {
    const orders = new Map<string, OrderOnBook>();
    const states: Parameters<typeof planOnBookOf>[0][number][] = [];
    for (const { key, side } of planned.get(coin.coinBotId) ?? []) {
      const record = recordOf.get(`${coin.coinBotId}:${key}`);
      const state = orderOnBookStateOf(record?.status);
      states.push({ side, state });
      let refusal: OrderOnBook['refusal'] = null;
      if (record && state === 'refused') {
        const entry = entryOf.get(`${coin.coinBotId}:order_rejected:${record.client_order_id}`);
        const data = (entry?.data ?? {}) as Record<string, unknown>;
        const code = text(data.code) ?? coin.lastError;
        const message = text(data.message);
        refusal = {
          reason: refusalReasonOf({ code, message }),
          code,
          exchangeCode: text(data.exchangeCode),
          message,
          at: new Date(entry?.at ?? record.updated_at).toISOString(),
        };
      }
      const since = record ? new Date(record.updated_at).toISOString() : null;
      orders.set(key, { state, since, refusal });
    }
    result.set(coin.coinBotId, { orders, book: planOnBookOf(states) });
  }
  return result;
};
