import type { PrismaClient } from '@gridbot/db';

/**
 * The tables a refused request must not touch: people, money, trading and what users are told.
 * Caches the server may fill while answering (candles, price marks) are left out on purpose.
 */
export const FINGERPRINTED_TABLES = [
  'users',
  'user_config',
  'notification_settings',
  'exchange_accounts',
  'coin_bots',
  'lots',
  'orders',
  'fills',
  'coin_activity',
  'deal_commands',
  'ledger_accounts',
  'ledger_transfers',
  'ledger_entries',
  'wallets',
  'chain_deposits',
  'withdrawals',
  'license_purchases',
  'license_levels',
  'referral_bonuses',
  'matching_accruals',
  'network_expansion_payouts',
  'notifications',
  'operator_alerts',
  'wallet_freezes',
  'platform_addresses',
] as const;

/** Table → `rows:checksum`, the checksum being the sum of a 64-bit hash of every row's text. */
export type Fingerprint = Record<string, string>;

// One SELECT per table, sent as one statement: a snapshot costs one round trip. A sum of row
// hashes needs no sort, so a snapshot stays cheap as the fuzz fills the tables.
const SQL = FINGERPRINTED_TABLES.map(
  (table) =>
    `SELECT '${table}' AS name, count(*)::int AS rows, ` +
    `coalesce(sum(hashtextextended(t::text, 0)), 0)::text AS sum FROM ${table} t`,
).join('\nUNION ALL\n');

export const fingerprint = async (prisma: PrismaClient): Promise<Fingerprint> => {
  const rows = await prisma.$queryRawUnsafe<{ name: string; rows: number; sum: string }[]>(SQL);
  return Object.fromEntries(rows.map((row) => [row.name, `${row.rows}:${row.sum}`]));
};

/** The tables whose fingerprint differs (empty when nothing changed). */
export const changedTables = (before: Fingerprint, after: Fingerprint) =>
  FINGERPRINTED_TABLES.filter((table) => before[table] !== after[table]);
