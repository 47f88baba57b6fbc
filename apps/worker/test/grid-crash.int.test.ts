import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Decimal from 'decimal.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createGridHarness, expectTradeFeesOncePerLot, type Harness } from './support/grid-harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const child = fileURLToPath(new URL('./support/reconcile-child.ts', import.meta.url));

/**
 * Starts a worker process on the coin bot; once it has finished a pass, moves the price (so the
 * next pass applies fills and places orders) and SIGKILLs it `killAfterMs` later, mid-work.
 */
const runAndKill = async (harness: Harness, price: string, killAfterMs: number) => {
  const proc = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      child,
      harness.databaseUrl!,
      harness.sandbox.url,
      harness.secretKeyHex,
      String(harness.bot.id),
    ],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    },
  );
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('pass done') && resolve());
    proc.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
  });
  harness.setPrice(price);
  await sleep(killAfterMs);
  process.kill(-proc.pid!, 'SIGKILL');
  await new Promise((resolve) => proc.once('exit', resolve));
};

describe.runIf(process.env.DATABASE_URL)('worker processes killed at random moments (PostgreSQL)', () => {
  it('lose no fill and duplicate no order', async () => {
    h = await createGridHarness({ maxTrades: 5 });
    const prices = ['0.99', '0.97', '1.0', '0.985', '1.02', '0.99', '1.01', '0.98', '1.03'];
    for (const [round, price] of prices.entries()) {
      await runAndKill(h, price, 10 + ((round * 53) % 200));
    }
    // A clean run after the last crash, then the books must agree.
    await h.prisma.coinBot.update({ where: { id: h.bot.id }, data: { lockUntil: null, lockOwner: null } });
    await h.reconcile();
    expect(await h.reconcile()).toMatchObject({ status: 'done', placed: 0, filled: 0 });

    const exchangeOpen = await h.openOnExchange();
    const dbOpen = await h.prisma.order.findMany({
      where: { coinBotId: h.bot.id, status: { in: ['open', 'pending'] } },
    });
    expect(exchangeOpen.map((o) => o.clientOrderId).sort()).toEqual(
      dbOpen.map((o) => o.clientOrderId).sort(),
    );
    const all = h.sandbox.control.orders(h.keys.apiKey, 'XRP/USDT');
    expect(new Set(all.map((o) => o.clientOrderId)).size).toBe(all.length);

    const trades = h.sandbox.control.trades(h.keys.apiKey, 'XRP/USDT');
    expect(await h.prisma.fill.count({ where: { coinBotId: h.bot.id } })).toBe(trades.length);
    const lots = await h.prisma.lot.findMany({ where: { coinBotId: h.bot.id } });
    const buys = trades.filter((t) => t.isBuyer).length;
    expect(lots.length).toBe(
      new Set(
        all.filter((o) => o.side === 'BUY' && new Decimal(o.executedQty).gt(0)).map((o) => o.clientOrderId),
      ).size,
    );
    expect(buys).toBeGreaterThan(3);
    // A duplicate buy that filled would have been adopted as an unexpected lot and flagged.
    expect((await h.prisma.coinBot.findUniqueOrThrow({ where: { id: h.bot.id } })).lastError).not.toBe(
      'UNEXPECTED_FILL',
    );
    console.log(`crash test: ${trades.length} trades, ${all.length} orders, ${lots.length} lots`);
    const carried = (
      await h.prisma.coinBot.findUniqueOrThrow({ where: { id: h.bot.id } })
    ).carryCost.toString();
    const spent = lots.reduce((s, l) => s.plus(l.cost.toString()), new Decimal(carried));
    const received = lots.reduce((s, l) => s.plus(l.proceeds?.toString() ?? 0), new Decimal(0));
    expect(h.balance('USDT').toFixed(8)).toBe(new Decimal(1000).minus(spent).plus(received).toFixed(8));
    await expectTradeFeesOncePerLot(h);
    // Nine worker processes started with tsx: minutes on a loaded shared machine.
  }, 300_000);
});
