import { setTimeout as delay } from 'node:timers/promises';
import type { CoinBot } from '@gridbot/db';
import { isExchangeError } from '@gridbot/exchange';
import Decimal from 'decimal.js';
import { recordActivity } from '../activity/record-activity';
import type { ServiceContext } from '../context/service-context';
import { ACTIVE_ORDER_STATUSES, dec } from '../grid/coin-bot-state';
import { reconcileCoinBot } from '../grid/reconcile-coin-bot';

/** How often the cancel pass waits for a reconcile holding the coin bot's lease. */
const LEASE_ATTEMPTS = 20;

/** Coin bots in the portfolio with open deals (open lots) or orders that may rest on the exchange. */
export const coinBotsWithDeals = (ctx: ServiceContext, exchangeAccountId: number): Promise<CoinBot[]> =>
  ctx.prisma.coinBot.findMany({
    where: {
      exchangeAccountId,
      deletedAt: null,
      OR: [
        { lots: { some: { closedAt: null } } },
        { orders: { some: { status: { in: [...ACTIVE_ORDER_STATUSES] } } } },
      ],
    },
    orderBy: { id: 'asc' },
  });

/**
 * Pauses the coin bot and cancels its resting orders with the keys still saved (the previous
 * account's), under its lease like every exchange write; fills found on the way are booked. When
 * those keys no longer work the orders stay where they are (counted by the caller).
 */
const cancelWithPreviousKeys = async (ctx: ServiceContext, bot: CoinBot): Promise<number> => {
  await ctx.prisma.coinBot.update({ where: { id: bot.id }, data: { running: false } });
  let cancelled = 0;
  for (let attempt = 0; attempt < LEASE_ATTEMPTS; attempt += 1) {
    try {
      const result = await reconcileCoinBot(ctx, { coinBotId: bot.id, reason: 'keys' });
      cancelled += result.canceled;
      if (result.status === 'done') break;
    } catch (error) {
      if (!isExchangeError(error)) throw error;
      ctx.log.warn({ coinBotId: bot.id, code: error.code }, 'previous keys could not cancel the orders');
      break;
    }
    await delay(250);
  }
  return cancelled;
};

/**
 * Keys of another exchange account were confirmed while this coin had open deals on the previous
 * one (docs/grid.md#replacing-api-keys). The new account holds neither its coin nor its orders, so
 * the deals cannot go on there: the coin bot is retired like a removed coin — its resting orders
 * cancelled first, its open lots left on the previous account, its row (lots, fills, daily PnL,
 * activity) kept, so every PnL figure stays as it was and no profit or loss is booked for coin
 * that was never sold — and the coin stays in the portfolio as a new coin bot with the same
 * settings and no deals, paused until the user starts it on the new account.
 */
export const leaveCoinOnPreviousAccount = async (
  ctx: ServiceContext,
  bot: CoinBot,
): Promise<{ coin: string; lotsLeft: number; quantityLeft: string; ordersLeft: number }> => {
  const cancelledOrders = await cancelWithPreviousKeys(ctx, bot);
  return ctx.prisma.$transaction(async (tx) => {
    const now = ctx.clock.now();
    // Orders the previous keys could not cancel are no longer ours to manage; they may still rest
    // on the previous account, so the activity says how many.
    const { count: ordersLeft } = await tx.order.updateMany({
      where: { coinBotId: bot.id, status: { in: [...ACTIVE_ORDER_STATUSES] } },
      data: { status: 'canceled', liveKey: null },
    });
    const lots = await tx.lot.findMany({
      where: { coinBotId: bot.id, closedAt: null },
      select: { qty: true },
    });
    const quantity = lots.reduce((sum, l) => sum.plus(dec(l.qty)), new Decimal(0)).toFixed();
    await tx.coinBot.update({
      where: { id: bot.id },
      data: { deletedAt: now, removalId: bot.id, running: false },
    });
    const facts = {
      reason: 'other_account',
      cancelledOrders,
      ordersLeft,
      lotsLeft: lots.length,
      quantityLeft: quantity,
    };
    const fresh = await tx.coinBot.create({
      data: {
        userId: bot.userId,
        exchangeAccountId: bot.exchangeAccountId,
        coin: bot.coin,
        symbol: bot.symbol,
        orderSize: bot.orderSize,
        stepPct: bot.stepPct,
        stepIncreasePct: bot.stepIncreasePct,
        maxTrades: bot.maxTrades,
        dry: bot.dry,
        running: false,
      },
    });
    await recordActivity(tx, [
      { coinBotId: bot.id, userId: bot.userId, kind: 'coin_removed', actor: 'user', data: facts },
      { coinBotId: fresh.id, userId: bot.userId, kind: 'keys_changed', actor: 'user', data: facts },
    ]);
    return { coin: bot.coin, lotsLeft: lots.length, quantityLeft: quantity, ordersLeft };
  });
};
