// Price scan benchmark (docs/performance.md): 100,000 running coin bots over 200 symbols on PostgreSQL.
// Targets: a full scan round with no crossings ≤ 50 ms; with 1,000 crossings, all reconciles
// enqueued (BullMQ on Redis) ≤ 200 ms. Uses DATABASE_URL / REDIS_URL or the local defaults.
import { randomBytes } from 'node:crypto';
import { createTestDb } from '@gridbot/db/testing';
import { createBullQueue, reconcileCoinBotJob, reconcileJobId } from '@gridbot/jobs';
import { findCrossedCoinBots, type PriceRange } from '@gridbot/services';
import { createTestContext } from '@gridbot/services/testing';

process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const BOTS = 100_000;
const SYMBOLS = 200;
const BOTS_PER_USER = 10;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const time = async <T>(fn: () => Promise<T>) => {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
};

const db = await createTestDb();
const { prisma } = db;
const ctx = createTestContext({ prisma });
try {
  const seeded = await time(async () => {
    const users = BOTS / BOTS_PER_USER;
    await prisma.$executeRawUnsafe(`
      INSERT INTO users (telegram_id, username, username_key, first_name, referral_code, updated_at)
      SELECT g, 'u' || g, 'u' || g, 'U', 'r' || g, now() FROM generate_series(1, ${users}) g`);
    await prisma.$executeRawUnsafe(`
      INSERT INTO exchange_accounts (user_id, exchange, mode, api_key, secret_cipher, secret_iv, key_id, updated_at)
      SELECT id, 'binance', 'sandbox', 'k', '\\x00', '\\x00', 'x', now() FROM users`);
    // Bot i trades symbol i % 200; prices around 1.0: one buy in [0.90, 0.98), three sells in (1.02, 1.10].
    await prisma.$executeRawUnsafe(`
      INSERT INTO coin_bots (user_id, exchange_account_id, coin, symbol, order_size, step_pct, step_increase_pct, max_trades, running, updated_at)
      SELECT a.user_id, a.id, 'C' || s.n, 'C' || s.n || '/USDT', 10, 1, 0.1, 5, true, now()
      FROM exchange_accounts a CROSS JOIN generate_series(0, ${BOTS_PER_USER - 1}) k
      CROSS JOIN LATERAL (SELECT ((a.user_id * ${BOTS_PER_USER} + k) % ${SYMBOLS}) AS n) s`);
    await prisma.$executeRawUnsafe(`
      INSERT INTO orders (coin_bot_id, client_order_id, key, role, side, type, symbol, price, qty, lot_seq, attempt, status, updated_at)
      SELECT b.id, 'b' || b.id, 'buy:2', 'averaging', 'buy', 'limit', b.symbol, 0.90 + random() * 0.08, 10, 2, 1, 'open', now()
      FROM coin_bots b`);
    await prisma.$executeRawUnsafe(`
      INSERT INTO orders (coin_bot_id, client_order_id, key, role, side, type, symbol, price, qty, lot_seq, attempt, status, updated_at)
      SELECT b.id, 's' || b.id || '-' || l, 'tp:' || l, 'take_profit', 'sell', 'limit', b.symbol, 1.02 + 0.0000001 + random() * 0.08, 10, l, 1, 'open', now()
      FROM coin_bots b CROSS JOIN generate_series(1, 3) l`);
    await prisma.$executeRawUnsafe('ANALYZE');
  });
  const orders = await prisma.order.count();
  console.log(
    `seeded ${BOTS} coin bots, ${orders} resting orders over ${SYMBOLS} symbols in ${(seeded.ms / 1000).toFixed(1)} s`,
  );

  const symbols = Array.from({ length: SYMBOLS }, (_, n) => `C${n}/USDT`);
  const quiet: PriceRange[] = symbols.map((symbol) => ({ symbol, low: '0.99', high: '1.01' }));
  // Buy prices are uniform in [0.90, 0.98): a low of 0.9792 crosses ~1 % of each symbol's bots.
  const busy: PriceRange[] = symbols.map((symbol) => ({ symbol, low: '0.9792', high: '1.01' }));

  for (let i = 0; i < 5; i += 1) await findCrossedCoinBots(ctx, { ranges: quiet });
  const quietRuns: number[] = [];
  for (let i = 0; i < 30; i += 1) {
    const run = await time(() => findCrossedCoinBots(ctx, { ranges: quiet }));
    if (run.value.length !== 0) throw new Error('the quiet round found crossings');
    quietRuns.push(run.ms);
  }

  const queue = createBullQueue({ redisUrl, prefix: `bench-${randomBytes(4).toString('hex')}` });
  const busyRuns: { ms: number; crossed: number }[] = [];
  for (let i = 0; i < 10; i += 1) {
    const run = await time(async () => {
      const ids = await findCrossedCoinBots(ctx, { ranges: busy });
      await queue.enqueueMany(
        reconcileCoinBotJob,
        ids.map((coinBotId) => ({
          payload: { coinBotId, reason: 'price' },
          options: { jobId: `${reconcileJobId(coinBotId)}-${i}` },
        })),
      );
      return ids.length;
    });
    busyRuns.push({ ms: run.ms, crossed: run.value });
  }
  await queue.close();

  // The floor, in the same run: a bare PostgreSQL transaction through the same client.
  const floorRuns: number[] = [];
  for (let i = 0; i < 30; i += 1) {
    floorRuns.push((await time(() => prisma.$transaction([prisma.$queryRaw`SELECT 1`]))).ms);
  }
  const floorMs = median(floorRuns);
  const quietMs = median(quietRuns);
  const busyMs = median(busyRuns.map((r) => r.ms));
  const crossed = busyRuns[0]?.crossed ?? 0;
  console.log(`floor (bare transaction, SELECT 1): median ${floorMs.toFixed(2)} ms`);
  console.log(
    `scan round, no crossings:        median ${quietMs.toFixed(1)} ms = ${(quietMs / floorMs).toFixed(0)}× the floor (target ≤ 50 ms) ${quietMs <= 50 ? 'OK' : 'MISSED'}`,
  );
  console.log(
    `scan round, ${crossed} crossings + enqueue: median ${busyMs.toFixed(1)} ms = ${(busyMs / floorMs).toFixed(0)}× the floor (target ≤ 200 ms for 1,000) ${busyMs <= 200 ? 'OK' : 'MISSED'}`,
  );
} finally {
  await db.close();
}
process.exit(0);
