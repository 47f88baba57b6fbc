import type { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client';
import type { MigrationTarget } from './migrations';
import { openPglite } from './open-pglite';
import { pgliteAdapter } from './pglite-adapter';

export type DbKind = 'postgres' | 'pglite';

export type Db = {
  prisma: PrismaClient;
  kind: DbKind;
  /** What applyMigrations()/migrationStatus() need to reach the same database. */
  target: MigrationTarget;
  /** Disconnects Prisma, then ends the pg pool or closes PGlite. Idempotent. */
  close(): Promise<void>;
};

export type CreateDbOptions = {
  /** postgres:// URL: PostgreSQL through @prisma/adapter-pg. When absent, PGlite. */
  databaseUrl?: string;
  /**
   * PGlite data folder (relative paths resolve against the repo root; default .data/pglite), or
   * 'memory' for a throwaway in-memory database.
   */
  pgliteDir?: string | 'memory';
  /** Max connections of the pg pool (default 10). */
  poolMax?: number;
  /** Errors of idle pg connections (server restart…); the next query fails and reconnects anyway. */
  onPoolError?: (error: Error) => void;
};

const once = (fn: () => Promise<void>): (() => Promise<void>) => {
  let done: Promise<void> | undefined;
  return () => {
    done ??= fn();
    return done;
  };
};

/**
 * Opens the database: PostgreSQL when `databaseUrl` is given, else embedded PGlite. Async because
 * PGlite starts (≈2-3 s) before it answers; a bad folder fails here rather than at the first query.
 * A PGlite folder is locked for this process until close() (or exit): a second opener gets
 * DbError DB_IN_USE, an unreadable folder is moved aside with DB_DAMAGED (see open-pglite.ts).
 * PGlite is one connection: never query through `prisma` while a `$transaction` of it is open.
 */
export const createDb = async (options: CreateDbOptions = {}): Promise<Db> => {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolMax ?? 10 });
    // Idle clients killed by the server emit 'error' on the pool; unhandled it would crash the process.
    pool.on('error', options.onPoolError ?? (() => {}));
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    return {
      prisma,
      kind: 'postgres',
      target: { kind: 'postgres', databaseUrl: options.databaseUrl },
      close: once(async () => {
        await prisma.$disconnect();
        await pool.end();
      }),
    };
  }
  const opened = await openPglite(options.pgliteDir);
  return dbFromPglite(opened.pglite, opened.close);
};

/** Wraps a started PGlite; close() disconnects Prisma, then runs `closePglite` (default: closes it). */
export const dbFromPglite = (
  pglite: PGlite,
  closePglite = async () => {
    if (!pglite.closed) await pglite.close();
  },
): Db => {
  const prisma = new PrismaClient({ adapter: pgliteAdapter(pglite) });
  return {
    prisma,
    kind: 'pglite',
    target: { kind: 'pglite', pglite },
    close: once(async () => {
      await prisma.$disconnect();
      await closePglite();
    }),
  };
};
