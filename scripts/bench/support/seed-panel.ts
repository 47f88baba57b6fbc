// The panel's population in PostgreSQL, in a few SQL statements (docs/performance.md#panel): users,
// one sandbox exchange account each, COINS_PER_USER running coin bots each over SYMBOLS symbols
// (`C<n>/USDT`), LOTS_PER_BOT open lots per coin bot, today's PnL rows and scanned prices.
// Used by panel.ts and fleet.ts, so both measure the same data.
import type { PrismaClient } from '@gridbot/db';

export const PANEL_SEED = { users: 10_000, coinsPerUser: 10, symbols: 200, lotsPerBot: 3 } as const;

export type SeededUser = { id: number; uid: number };

export const seedPanel = async (prisma: PrismaClient, sizes = PANEL_SEED): Promise<SeededUser[]> => {
  const { users, coinsPerUser, symbols, lotsPerBot } = sizes;
  await prisma.$executeRawUnsafe(`
    INSERT INTO users (telegram_id, username, username_key, first_name, referral_code, updated_at)
    SELECT g, 'u' || g, 'u' || g, 'U', 'r' || g, now() FROM generate_series(1, ${users}) g`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO exchange_accounts (user_id, exchange, mode, api_key, secret_cipher, secret_iv, key_id, can_trade, checked_at, updated_at)
    SELECT id, 'binance', 'sandbox', 'k' || id, '\\x00'::bytea, '\\x00'::bytea, 'bench', true, now(), now() FROM users`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO coin_bots (user_id, exchange_account_id, coin, symbol, order_size, step_pct, step_increase_pct,
                           max_trades, running, started_at, next_seq, realized_pnl, closed_trades, profitable_trades, updated_at)
    SELECT a.user_id, a.id, 'C' || ((a.user_id * 7 + c) % ${symbols}), 'C' || ((a.user_id * 7 + c) % ${symbols}) || '/USDT',
           10, 1, 0.1, 10, true, now(), ${lotsPerBot + 1}, 1.234567, 5, 4, now()
      FROM exchange_accounts a, generate_series(1, ${coinsPerUser}) c`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO lots (coin_bot_id, seq, buy_price, qty, cost, opened_at)
    SELECT b.id, s, 1 - s * 0.01, 10 / (1 - s * 0.01), 10.01, now() FROM coin_bots b, generate_series(1, ${lotsPerBot}) s`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO daily_pnl (coin_bot_id, user_id, date, realized_pnl, closed_trades, profitable_trades)
    SELECT id, user_id, (now() AT TIME ZONE 'UTC')::date, 0.1234, 1, 1 FROM coin_bots`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO price_marks (venue, symbol, price, scanned_at, updated_at)
    SELECT 'binance:sandbox', 'C' || g || '/USDT', 0.98, now(), now() FROM generate_series(0, ${symbols - 1}) g`);
  await prisma.$executeRawUnsafe('ANALYZE');
  return prisma.user.findMany({ select: { id: true, uid: true }, orderBy: { id: 'asc' } });
};
