import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { createDb } from '@gridbot/db';
import { loggerOptions } from '@gridbot/runtime';
import { readSandboxState } from '@gridbot/sandbox';
import { DEMO_ACCOUNTS } from '@gridbot/services';
import { pino } from 'pino';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type Standalone, startStandalone } from '../src/start-standalone';

const dir = mkdtempSync(join(tmpdir(), 'standalone-restart-'));
const env = {
  PGLITE_DIR: join(dir, 'pglite'),
  PORT: '0',
  SANDBOX_PORT: '0',
  LOG_LEVEL: 'info',
  DEMO: '1',
};
let running: Standalone | undefined;
afterAll(async () => {
  await running?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The launcher's log lines, parsed (a real pino logger writing into memory). */
const logInto = (lines: Array<Record<string, unknown>>) =>
  pino(
    { ...loggerOptions('info'), name: 'gridbot' },
    new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text));
        done();
      },
    }),
  );

/** Everything the restart must keep, read straight from the stopped launcher's database. */
const readDatabase = async () => {
  const db = await createDb({ pgliteDir: env.PGLITE_DIR });
  try {
    const user = await db.prisma.user.findUniqueOrThrow({
      where: { telegramId: DEMO_ACCOUNTS.user.telegramId },
    });
    const where = { coinBot: { userId: user.id } };
    return {
      bots: await db.prisma.coinBot.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } }),
      lots: await db.prisma.lot.findMany({ where, orderBy: { id: 'asc' } }),
      fills: await db.prisma.fill.findMany({ where, orderBy: { id: 'asc' } }),
      pnl: await db.prisma.dailyPnl.findMany({ where: { userId: user.id } }),
      orders: await db.prisma.order.findMany({ where, orderBy: { id: 'asc' } }),
      account: await db.prisma.exchangeAccount.findFirstOrThrow({ where: { userId: user.id } }),
      // The demo trades on each dialect of the sandbox: one account per exchange.
      accounts: await db.prisma.exchangeAccount.findMany({
        where: { userId: user.id },
        orderBy: { id: 'asc' },
      }),
    };
  } finally {
    await db.close();
  }
};

describe('npm start, stopped and started again on the same data folder', () => {
  it('keeps the coin bots, lots, orders and PnL; exchange and database agree afterwards', async () => {
    // Run 1: a fast price replay, until the demo holds a lot and has orders resting.
    running = await startStandalone(env, {
      sandboxTickMs: 20,
      sandboxSaveEveryMs: 200,
      banner: false,
      log: logInto([]),
    });
    const first = running;
    await vi.waitFor(
      async () => {
        const lots = await first.ctx.prisma.lot.count({ where: { closedAt: null } });
        const open = await first.ctx.prisma.order.count({ where: { status: 'open' } });
        expect(lots).toBeGreaterThan(0);
        expect(open).toBeGreaterThan(1);
      },
      { timeout: 30_000, interval: 100 },
    );
    running = undefined;
    await first.stop();

    const before = await readDatabase();
    const stateFile = first.sandboxStateFile;
    const exchangeBefore = readSandboxState(stateFile);
    expect(exchangeBefore?.engine.orders.length).toBeGreaterThan(0);
    // What a worker stopped at the wrong moment leaves: one order sent whose answer was never
    // recorded (pending), one the database gave up on although it rests on the exchange (an orphan).
    const restingAtStop = new Set(
      exchangeBefore?.engine.orders.filter((o) => o.status === 'NEW').map((o) => o.clientOrderId),
    );
    const openRows = before.orders.filter((o) => o.status === 'open' && restingAtStop.has(o.clientOrderId));
    const [sentUnrecorded, orphan] = openRows;
    expect(orphan).toBeDefined();
    const db = await createDb({ pgliteDir: env.PGLITE_DIR });
    await db.prisma.order.update({ where: { id: sentUnrecorded!.id }, data: { status: 'pending' } });
    await db.prisma.order.update({ where: { id: orphan!.id }, data: { status: 'rejected', liveKey: null } });
    await db.close();

    // Run 2: prices stand still, so everything that changes is recovery.
    const logs: Array<Record<string, unknown>> = [];
    const restartedAt = new Date();
    running = await startStandalone(env, { sandboxTickMs: 0, banner: false, log: logInto(logs) });
    const second = running;
    const { prisma } = second.ctx;
    await vi.waitFor(
      async () => {
        const bots = await prisma.coinBot.findMany({ where: { userId: before.account.userId } });
        expect(bots.every((b) => b.reconciledAt && b.reconciledAt >= restartedAt && !b.lockOwner)).toBe(true);
      },
      { timeout: 30_000, interval: 100 },
    );
    await second.ctx.queue.drain();

    const bots = await prisma.coinBot.findMany({
      where: { userId: before.account.userId },
      orderBy: { id: 'asc' },
    });
    expect(bots.map((b) => b.id)).toEqual(before.bots.map((b) => b.id));
    const accounts = await prisma.exchangeAccount.findMany({
      where: { userId: before.account.userId },
      orderBy: { id: 'asc' },
    });
    expect(accounts.map((a) => a.exchange)).toEqual(['binance', 'bybit', 'okx']);
    expect(accounts.map((a) => a.apiKey)).toEqual(before.accounts.map((a) => a.apiKey));
    const where = { coinBot: { userId: before.account.userId } };
    const lotIds = new Set((await prisma.lot.findMany({ where })).map((l) => l.id));
    expect(before.lots.every((l) => lotIds.has(l.id))).toBe(true);
    const fills = await prisma.fill.findMany({ where });
    expect(fills.length).toBeGreaterThanOrEqual(before.fills.length);
    const fillIds = new Set(fills.map((f) => f.id));
    expect(before.fills.every((f) => fillIds.has(f.id))).toBe(true);
    const pnl = await prisma.dailyPnl.findMany({ where: { userId: before.account.userId } });
    expect(pnl.length).toBeGreaterThanOrEqual(before.pnl.length);

    // The exchange and the database tell the same story, on every exchange account, once the
    // recovery has settled (an order it places may fill on arrival and be booked by the next pass).
    await vi.waitFor(
      async () => {
        const orders = accounts.flatMap((a) => second.sandbox.control.orders(a.apiKey));
        const restingOnExchange = orders
          .filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED')
          .map((o) => o.clientOrderId)
          .sort();
        const rows = await prisma.order.findMany({ where });
        const openInDb = rows
          .filter((o) => o.status === 'open')
          .map((o) => o.clientOrderId)
          .sort();
        expect(restingOnExchange).toEqual(openInDb);
        expect(rows.some((o) => o.status === 'pending')).toBe(false);
        // An order filled in part and still resting is booked when it completes (docs/grid.md#remainders):
        // its trades so far are its row's filled quantity, not fills yet.
        const partly = orders.filter((o) => o.status === 'PARTIALLY_FILLED');
        for (const o of partly) {
          const row = rows.find((r) => r.clientOrderId === o.clientOrderId);
          expect(row?.filledQty?.equals(o.executedQty), o.clientOrderId).toBe(true);
        }
        const partlyIds = new Set(partly.map((o) => String(o.orderId)));
        const trades = accounts
          .flatMap((a) => second.sandbox.control.trades(a.apiKey))
          .filter((t) => !partlyIds.has(String(t.orderId)));
        // The demo's first weeks were booked from the sandbox's past, not traded on it (demo history).
        const traded = (await prisma.fill.findMany({ where })).filter(
          (f) => !f.exchangeTradeId.startsWith('history-'),
        );
        expect(traded.map((f) => f.exchangeTradeId).sort()).toEqual(trades.map((t) => String(t.id)).sort());
      },
      { timeout: 30_000, interval: 200 },
    );
    const exchangeOrders = accounts.flatMap((a) => second.sandbox.control.orders(a.apiKey));
    const clientIds = exchangeOrders.map((o) => o.clientOrderId);
    expect(new Set(clientIds).size).toBe(clientIds.length);

    // The pending order was adopted (not sent twice), the orphan cancelled on the exchange.
    const adopted = exchangeOrders.filter((o) => o.clientOrderId === sentUnrecorded!.clientOrderId);
    expect(adopted).toHaveLength(1);
    const orphanNow = exchangeOrders.find((o) => o.clientOrderId === orphan!.clientOrderId);
    expect(orphanNow?.status).toBe('CANCELED');
    const summaries = logs.filter((l) => l.recovery === true);
    expect(summaries.map((l) => l.coinBotId).sort()).toEqual(before.bots.map((b) => b.id).sort());
    const total = (field: string) => summaries.reduce((sum, l) => sum + Number(l[field]), 0);
    expect(total('adopted')).toBe(1);
    expect(total('orphansCanceled')).toBe(1);
    expect(String(summaries[0]?.msg)).toMatch(
      /after restart: \d+ orders adopted, \d+ fills applied, \d+ orphans cancelled/,
    );
    // Two demo starts (each books three weeks of history): minutes on a loaded shared machine.
  }, 180_000);
});
