import { clientOrderIdFor } from '@gridbot/exchange';
import { createInProcessQueue, type JobQueue, reconcileCoinBotJob } from '@gridbot/jobs';
import { coinBotOrderKey, recordOrderOutcome } from '@gridbot/services';
import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { registerReconcile } from '../src/jobs/reconcile';
import { createGridHarness, type Harness } from './support/grid-harness';

let h: Harness | undefined;
let queue: JobQueue | undefined;
afterEach(async () => {
  await queue?.close();
  await h?.close();
  h = undefined;
  queue = undefined;
});

/** Every order the exchange ever received for a (lot, side): more than one live at once is a duplicate. */
const ordersSent = (harness: Harness) => harness.sandbox.control.orders(harness.keys.apiKey, 'XRP/USDT');

describe('single flight within one worker', () => {
  it('concurrent reconciles from the same worker (same owner) never both act', async () => {
    h = await createGridHarness();
    const results = await Promise.all([
      h.reconcile('worker-1'),
      h.reconcile('worker-1'),
      h.reconcile('worker-1'),
    ]);
    expect(results.filter((r) => r.status === 'done')).toHaveLength(1);
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
    expect(ordersSent(h)).toHaveLength(3);
  });

  it('the in-process queue with concurrency 4 and a flood of triggers sends each order once', async () => {
    h = await createGridHarness();
    const harness = h;
    queue = createInProcessQueue();
    registerReconcile(harness.contextFor('worker-1', queue), 4);
    for (let i = 0; i < 12; i += 1)
      await queue.enqueue(reconcileCoinBotJob, { coinBotId: harness.bot.id }, { jobId: `flood-${i}` });
    await queue.drain(30_000);
    harness.setPrice('0.99');
    for (let i = 0; i < 12; i += 1)
      await queue.enqueue(reconcileCoinBotJob, { coinBotId: harness.bot.id }, { jobId: `flood2-${i}` });
    await queue.drain(30_000);
    expect(await harness.openLots()).toHaveLength(2);
    expect(await harness.ladder()).toEqual(['buy@0.9791', 'sell@0.9999', 'sell@1.0100']);
    const buys = ordersSent(harness).filter((o) => o.side === 'BUY');
    expect(buys).toHaveLength(3);
  });
});

describe('rejections', () => {
  it('a buy the balance cannot pay does not keep the take profit from being placed, and is not retried at once', async () => {
    h = await createGridHarness({ usdt: '15' });
    const first = await h.reconcile();
    expect(first.error).toBe('EXCHANGE_INSUFFICIENT_BALANCE');
    expect(await h.ladder()).toEqual(['sell@1.0100']);
    await h.reconcile();
    await h.reconcile();
    expect(await h.prisma.order.count({ where: { coinBotId: h.bot.id, status: 'rejected' } })).toBe(1);
    expect((await h.prisma.coinBot.findUniqueOrThrow({ where: { id: h.bot.id } })).lastError).toBe(
      'EXCHANGE_INSUFFICIENT_BALANCE',
    );
    // The user is told once that the exchange stopped this coin (docs/notifications.md#kinds).
    const told = await h.prisma.notification.findMany({
      where: { userId: h.bot.userId, kind: 'coin_bot_error' },
    });
    expect(told.map((n) => n.data)).toEqual([
      {
        coinBotId: h.bot.id,
        coin: h.bot.symbol.split('/')[0],
        symbol: h.bot.symbol,
        code: 'EXCHANGE_INSUFFICIENT_BALANCE',
      },
    ]);
    h.setPrice('1.02');
    await h.reconcile();
    expect(await h.closedLots()).toHaveLength(1);
  });
});

describe('lot steps', () => {
  it('coin a take profit cannot sell (below one lot step) is carried into the next lot, not lost or booked as a loss', async () => {
    h = await createGridHarness({ stepSize: '1' });
    await h.reconcile();
    // 10 XRP bought, 0.01 XRP fee: a 9.99 lot; the take profit can sell 9.
    const [lot] = await h.openLots();
    expect(lot!.qty.toString()).toBe('9.99');
    h.setPrice('1.01');
    await h.reconcile();
    const [closed] = await h.closedLots();
    expect(closed!.qty.toString()).toBe('9');
    expect(new Decimal(closed!.pnl!.toString()).gt(0)).toBe(true);
    const next = await h.openLots();
    expect(next).toHaveLength(1);
    // The new lot holds its own coin plus the 0.99 carried over; its cost includes the carried share.
    const held = h.balance('XRP');
    expect(new Decimal(next[0]!.qty.toString()).eq(held)).toBe(true);
    const bot = await h.prisma.coinBot.findUniqueOrThrow({ where: { id: h.bot.id } });
    expect(bot.carryQty.toString()).toBe('0');
  });
});

describe('orders the database does not know', () => {
  it('a resting order with this coin bot’s id prefix but no live row is cancelled', async () => {
    h = await createGridHarness();
    await h.reconcile();
    const client = await h.clients.forAccount(h.account.id);
    const stray = clientOrderIdFor({
      coinBotId: coinBotOrderKey(h.salt, h.bot.id),
      lotSeq: 40,
      side: 'buy',
      attempt: 1,
    });
    await client.placeOrder({
      symbol: 'XRP/USDT',
      side: 'buy',
      type: 'limit',
      price: '0.5',
      amount: '20',
      clientOrderId: stray,
    });
    const foreign = clientOrderIdFor({
      coinBotId: coinBotOrderKey('other-installation', h.bot.id),
      lotSeq: 1,
      side: 'buy',
      attempt: 1,
    });
    await client.placeOrder({
      symbol: 'XRP/USDT',
      side: 'buy',
      type: 'limit',
      price: '0.5',
      amount: '20',
      clientOrderId: foreign,
    });
    await h.reconcile();
    const open = (await h.openOnExchange()).map((o) => o.clientOrderId);
    expect(open).not.toContain(stray);
    // Another installation's orders are not ours to touch.
    expect(open).toContain(foreign);
  });

  it('a lost answer to an order request: the order is found, not sent again', async () => {
    h = await createGridHarness();
    h.sandbox.control.failNextOrderResponse({ kind: 'drop' });
    await h.reconcile();
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
    expect(ordersSent(h)).toHaveLength(3);
    expect(await h.openLots()).toHaveLength(1);
  });
});

describe('fills the exchange does not list yet', () => {
  it('a finished order whose trades are missing is left for later, nothing is applied', async () => {
    h = await createGridHarness();
    await h.reconcile();
    h.setPrice('0.99');
    const row = await h.prisma.order.findFirstOrThrow({
      where: { coinBotId: h.bot.id, key: 'buy:2', status: 'open' },
    });
    const client = await h.clients.forAccount(h.account.id);
    const order = await client.fetchOrderByClientId('XRP/USDT', row.clientOrderId);
    expect(order?.status).toBe('closed');
    const recorded = await recordOrderOutcome(h.contextFor(), {
      bot: h.bot,
      row,
      order: order!,
      tradesOf: async () => [],
      orderableLot: () => true,
    });
    expect(recorded).toBe('incomplete');
    expect(await h.openLots()).toHaveLength(1);
    expect((await h.prisma.order.findUniqueOrThrow({ where: { id: row.id } })).status).toBe('open');
    await h.reconcile();
    expect(await h.openLots()).toHaveLength(2);
  });
});
