import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_ACCOUNTS, DEMO_HISTORY_DAYS } from '@gridbot/services';
import Decimal from 'decimal.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type Standalone, startStandalone } from '../src/start-standalone';

const dir = mkdtempSync(join(tmpdir(), 'standalone-history-'));
const env = { PGLITE_DIR: join(dir, 'pglite'), PORT: '0', SANDBOX_PORT: '0', LOG_LEVEL: 'warn', DEMO: '1' };
const DAY = 86_400_000;
let running: Standalone | undefined;
afterAll(async () => {
  await running?.stop();
  rmSync(dir, { recursive: true, force: true });
}, 120_000);

const sum = (values: Array<{ toString(): string }>) =>
  values.reduce<Decimal>((total, v) => total.plus(v.toString()), new Decimal(0));

/** The demo user's history as the pages read it: orders, closed lots and daily PnL before `before`. */
const readHistory = async (app: Standalone, before: Date) => {
  const { prisma } = app.ctx;
  const user = await prisma.user.findUniqueOrThrow({ where: { telegramId: DEMO_ACCOUNTS.user.telegramId } });
  const where = { coinBot: { userId: user.id } };
  return {
    user,
    bots: await prisma.coinBot.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } }),
    orders: await prisma.order.findMany({
      where: { ...where, createdAt: { lt: before } },
      include: { fills: true },
    }),
    lots: await prisma.lot.findMany({ where: { ...where, closedAt: { lt: before } } }),
    pnl: await prisma.dailyPnl.findMany({ where: { userId: user.id, date: { lt: before } } }),
  };
};

describe('the demo on its first start', () => {
  it('shows weeks of trading booked from the past candles, consistent with its fills, and books it only once', async () => {
    const startedAt = new Date();
    // Prices stand still: everything booked before the start is history, nothing moves after it.
    running = await startStandalone(env, { sandboxTickMs: 0, banner: false });
    const first = running;
    const today = new Date(
      Date.UTC(startedAt.getUTCFullYear(), startedAt.getUTCMonth(), startedAt.getUTCDate()),
    );
    const history = await readHistory(first, today);

    // Deals and daily PnL spread over the past weeks, for every coin.
    // On each exchange's dialect (docs/decisions.md): XRP on Binance and Bybit, ADA and ETH on Binance and OKX.
    expect(history.bots.map((b) => b.coin).sort()).toEqual(['ADA', 'ADA', 'ETH', 'ETH', 'LTC', 'XRP', 'XRP']);
    for (const bot of history.bots) {
      expect(bot.running).toBe(true);
      expect(bot.startedAt!.getTime()).toBeLessThan(startedAt.getTime() - (DEMO_HISTORY_DAYS - 1) * DAY);
    }
    const closed = history.lots;
    expect(closed.length).toBeGreaterThan(20);
    const days = new Set(history.pnl.map((p) => p.date.toISOString().slice(0, 10)));
    expect(days.size).toBeGreaterThanOrEqual(10);
    const oldest = Math.min(...history.orders.map((o) => o.createdAt.getTime()));
    expect(oldest).toBeLessThan(startedAt.getTime() - (DEMO_HISTORY_DAYS - 2) * DAY);

    // The figures agree with the fills they come from.
    for (const order of history.orders) {
      expect(order.status).toBe('filled');
      expect(sum(order.fills.map((f) => f.qty)).eq(order.filledQty.toString())).toBe(true);
    }
    for (const bot of history.bots) {
      const lots = closed.filter((l) => l.coinBotId === bot.id);
      const pnl = history.pnl.filter((p) => p.coinBotId === bot.id);
      expect(lots.length).toBeGreaterThan(0);
      for (const lot of lots)
        expect(lot.pnl!.toString()).toBe(sum([lot.proceeds!]).minus(lot.cost.toString()).toString());
      expect(sum(lots.map((l) => l.pnl!)).eq(sum(pnl.map((p) => p.realizedPnl)))).toBe(true);
      expect(pnl.reduce((n, p) => n + p.closedTrades, 0)).toBe(lots.length);
      const sells = history.orders.filter((o) => o.coinBotId === bot.id && o.side === 'sell');
      const proceeds = sells
        .flatMap((o) => o.fills)
        .map((f) => new Decimal(f.quoteQty.toString()).minus(f.feeQuote.toString()));
      expect(sum(proceeds).eq(sum(lots.map((l) => l.proceeds!)))).toBe(true);
    }

    // The exchange account holds the coin the open lots hold (once the first reconciles are done).
    await vi.waitFor(
      async () => {
        const { prisma } = first.ctx;
        const bots = await prisma.coinBot.findMany({ where: { userId: history.user.id } });
        expect(bots.every((b) => b.reconciledAt && !b.lockOwner)).toBe(true);
        // Each exchange account (one per sandbox dialect) holds what its own coin bots' lots hold.
        const accounts = await prisma.exchangeAccount.findMany({ where: { userId: history.user.id } });
        for (const bot of bots) {
          const account = accounts.find((a) => a.id === bot.exchangeAccountId)!;
          const balances = first.sandbox.control.account(account.apiKey).balances;
          const open = await prisma.lot.findMany({ where: { coinBotId: bot.id, closedAt: null } });
          const held = balances.find((b) => b.asset === bot.coin);
          const onExchange = sum([held?.free ?? '0', held?.locked ?? '0']);
          expect(onExchange.toString()).toBe(sum([...open.map((l) => l.qty), bot.carryQty]).toString());
        }
      },
      { timeout: 60_000, interval: 200 },
    );
    await first.ctx.queue.drain();
    running = undefined;
    await first.stop();

    // A second start resumes: the history is not booked again.
    running = await startStandalone(env, { sandboxTickMs: 0, banner: false });
    // Its restart reconciles run to the end before the test stops it.
    await running.ctx.queue.drain();
    const again = await readHistory(running, today);
    expect(again.orders.map((o) => o.id).sort()).toEqual(history.orders.map((o) => o.id).sort());
    expect(again.pnl.length).toBe(history.pnl.length);
    expect(again.bots.map((b) => b.id)).toEqual(history.bots.map((b) => b.id));
  }, 180_000);
});
