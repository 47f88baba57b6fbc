import { randomBytes } from 'node:crypto';
import { clientOrderIdFor } from '@gridbot/exchange';
import { createBullQueue, type JobQueue, reconcileCoinBotJob } from '@gridbot/jobs';
import { coinBotOrderKey, reconcileCoinBot } from '@gridbot/services';
import { afterEach, describe, expect, it } from 'vitest';
import { registerReconcile } from '../src/jobs/reconcile';
import { createGridHarness, type Harness } from './support/grid-harness';

let h: Harness | undefined;
const queues: JobQueue[] = [];
afterEach(async () => {
  await Promise.all(queues.splice(0).map((q) => q.close()));
  await h?.close();
  h = undefined;
});

describe('restart safety', () => {
  it('a worker killed between placing an order and saving it: the restart adopts the order, no duplicate', async () => {
    h = await createGridHarness();
    await h.reconcile();
    h.setPrice('0.99');
    await h.reconcile();
    // What a crash leaves behind: the intent row is written (pending), the exchange got the order,
    // the answer never reached the database.
    const client = await h.clients.forAccount(h.account.id);
    const lots = await h.openLots();
    const clientOrderId = clientOrderIdFor({
      coinBotId: coinBotOrderKey(h.salt, h.bot.id),
      lotSeq: 2,
      side: 'sell',
      attempt: 2,
    });
    const tp = await h.prisma.order.findFirstOrThrow({
      where: { coinBotId: h.bot.id, key: 'tp:2', status: 'open' },
    });
    await client.cancelOrder('XRP/USDT', { clientOrderId: tp.clientOrderId });
    await h.prisma.order.update({ where: { id: tp.id }, data: { status: 'canceled', liveKey: null } });
    await h.prisma.order.create({
      data: {
        ...tp,
        id: undefined,
        clientOrderId,
        attempt: 2,
        status: 'pending',
        exchangeOrderId: null,
        createdAt: undefined,
        updatedAt: undefined,
      },
    });
    await client.placeOrder({
      symbol: 'XRP/USDT',
      side: 'sell',
      type: 'limit',
      price: '0.9999',
      amount: tp.qty!.toString(),
      clientOrderId,
    });
    expect(lots).toHaveLength(2);

    const result = await h.reconcile();
    expect(result.placed).toBe(0);
    const open = await h.openOnExchange();
    expect(open.filter((o) => o.side === 'sell')).toHaveLength(2);
    expect(open.filter((o) => o.clientOrderId === clientOrderId)).toHaveLength(1);
    expect((await h.prisma.order.findUniqueOrThrow({ where: { clientOrderId } })).status).toBe('open');
  });

  it('an intent that never reached the exchange is placed once by the next run', async () => {
    h = await createGridHarness();
    await h.reconcile();
    const tp = await h.prisma.order.findFirstOrThrow({
      where: { coinBotId: h.bot.id, key: 'tp:1', status: 'open' },
    });
    const client = await h.clients.forAccount(h.account.id);
    await client.cancelOrder('XRP/USDT', { clientOrderId: tp.clientOrderId });
    // The row says "pending": the worker died right after writing it.
    await h.prisma.order.update({ where: { id: tp.id }, data: { status: 'pending' } });
    await client.cancelOrder('XRP/USDT', { clientOrderId: tp.clientOrderId });
    const result = await h.reconcile();
    expect(result.status).toBe('done');
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
  });

  it('fills that happen while no worker runs are applied once at restart', async () => {
    h = await createGridHarness();
    await h.reconcile();
    // Worker down: the exchange fills the averaging buy, then the take profit of lot 1.
    h.setPrice('0.99');
    h.setPrice('1.0');
    h.setPrice('1.01');
    await h.reconcile();
    await h.reconcile();
    const lots = await h.prisma.lot.findMany({ where: { coinBotId: h.bot.id }, orderBy: { seq: 'asc' } });
    expect(lots.map((l) => [l.seq, l.closedAt !== null])).toEqual([
      [1, true],
      [2, true],
      [3, false],
    ]);
    const fills = await h.prisma.fill.count({ where: { coinBotId: h.bot.id } });
    const trades = h.sandbox.control.trades(h.keys.apiKey, 'XRP/USDT').length;
    expect(fills).toBe(trades);
  });
});

describe('single flight', () => {
  it('two concurrent reconciles of one coin bot produce one set of orders', async () => {
    h = await createGridHarness();
    const results = await Promise.all([h.reconcile('worker-a'), h.reconcile('worker-b')]);
    expect(results.map((r) => r.status).sort()).toEqual(['busy', 'done']);
    expect(await h.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
    expect(await h.openLots()).toHaveLength(1);
  });

  it.runIf(process.env.REDIS_URL)(
    'two BullMQ workers on Redis, triggers to both: one set of orders',
    async () => {
      h = await createGridHarness();
      const harness = h;
      const prefix = `grid-${randomBytes(4).toString('hex')}`;
      for (const owner of ['worker-a', 'worker-b']) {
        const queue = createBullQueue({ redisUrl: process.env.REDIS_URL!, prefix });
        queues.push(queue);
        registerReconcile(harness.contextFor(owner, queue), 2);
      }
      for (let i = 0; i < 6; i += 1) {
        await queues[i % 2]!.enqueue(reconcileCoinBotJob, { coinBotId: harness.bot.id }, { jobId: `t-${i}` });
      }
      await queues[0]!.drain(60_000);
      expect(await harness.ladder()).toEqual(['buy@0.9900', 'sell@1.0100']);
      expect(await harness.openLots()).toHaveLength(1);
      expect(
        await reconcileCoinBot(harness.contextFor('check'), { coinBotId: harness.bot.id }),
      ).toMatchObject({
        placed: 0,
        filled: 0,
      });
    },
  );
});
