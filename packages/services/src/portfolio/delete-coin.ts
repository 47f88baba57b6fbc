import { setTimeout as delay } from 'node:timers/promises';
import type { deleteCoin, Exchange } from '@gridbot/contracts';
import Decimal from 'decimal.js';
import type { z } from 'zod';
import { recordActivity } from '../activity/record-activity';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { findCoinBot } from '../exchange-keys/pick-exchange-account';
import { ACTIVE_ORDER_STATUSES, dec } from '../grid/coin-bot-state';
import { reconcileCoinBot } from '../grid/reconcile-coin-bot';

export type DeletedCoin = z.input<(typeof deleteCoin)['response']>;

/** How often a removal waits for a reconcile holding the coin bot's lease before giving up. */
const LEASE_ATTEMPTS = 20;

/**
 * Removes a coin from the portfolio (docs/grid.md#removing-a-coin). The coin bot is paused first,
 * then reconciled — under its lease, like every exchange write — which cancels its resting orders
 * and applies whatever they filled before, so no order is lost or placed twice. Only when nothing
 * rests any more is it marked removed; its rows (lots, fills, daily PnL, activity) stay.
 */
export const deletePortfolioCoin = async (
  ctx: ServiceContext,
  input: { userId: number; coin: string; exchange?: Exchange | undefined },
): Promise<DeletedCoin> => {
  const { prisma } = ctx;
  const bot = await findCoinBot(prisma, input);
  await prisma.coinBot.update({ where: { id: bot.id }, data: { running: false } });
  let cancelled = 0;
  for (let attempt = 0; ; attempt += 1) {
    const result = await reconcileCoinBot(ctx, { coinBotId: bot.id });
    cancelled += result.canceled;
    if (result.status === 'done') break;
    if (attempt >= LEASE_ATTEMPTS) throw new AppError('EXCHANGE_UNAVAILABLE');
    await delay(250);
  }
  const left = await prisma.$transaction(async (tx) => {
    const live = await tx.order.count({
      where: { coinBotId: bot.id, status: { in: [...ACTIVE_ORDER_STATUSES] } },
    });
    if (live > 0) throw new AppError('EXCHANGE_UNAVAILABLE');
    const lots = await tx.lot.findMany({
      where: { coinBotId: bot.id, closedAt: null },
      select: { qty: true },
    });
    const quantity = lots.reduce((sum, l) => sum.plus(dec(l.qty)), new Decimal(0));
    await tx.coinBot.update({
      where: { id: bot.id },
      data: { deletedAt: ctx.clock.now(), removalId: bot.id, running: false },
    });
    await recordActivity(tx, {
      coinBotId: bot.id,
      userId: input.userId,
      kind: 'coin_removed',
      actor: 'user',
      data: { cancelledOrders: cancelled, lotsLeft: lots.length, quantityLeft: quantity.toFixed() },
    });
    return { lots: lots.length, quantity: quantity.toFixed() };
  });
  ctx.log.info({ userId: input.userId, coin: input.coin, cancelled, left }, 'coin removed');
  return { coin: bot.coin, cancelledOrders: cancelled, leftOnExchange: left };
};
