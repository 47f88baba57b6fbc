import { randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
} from '@prisma/driver-adapter-utils';
import pg from 'pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';

/**
 * Driver adapter factories for the schema engine (migrations only; the runtime client uses the stock
 * adapters). They work around the adapters' gaps listed in docs (ENVIRONMENT.md "Prisma 7 offline").
 */
export type MigrationAdapterFactory = {
  factory: SqlMigrationAwareDriverAdapterFactory;
  /** Ends every pool / shadow database the engine made us open. Idempotent. */
  close(): Promise<void>;
};

type PgError = {
  code?: unknown;
  severity?: unknown;
  message?: unknown;
  detail?: unknown;
  column?: unknown;
  hint?: unknown;
};

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** Server errors as the engine expects them; anything else (socket, bug) is rethrown untouched. */
const toDriverError = (error: unknown): unknown => {
  const e = error as PgError;
  if (error instanceof Error && typeof e.code === 'string' && typeof e.severity === 'string') {
    return new DriverAdapterError({
      kind: 'postgres',
      code: e.code,
      severity: e.severity,
      message: error.message,
      detail: str(e.detail),
      column: str(e.column),
      hint: str(e.hint),
    });
  }
  return error;
};

// ---------------------------------------------------------------------------------------------
// PostgreSQL (@prisma/adapter-pg)

/**
 * Connection fields from a postgres:// URL. adapter-pg builds its shadow database by overriding
 * `database`, which pg ignores when a connectionString is present, so we never pass one.
 */
export const pgConfigFromUrl = (databaseUrl: string): pg.PoolConfig => {
  const url = new URL(databaseUrl);
  const sslmode = url.searchParams.get('sslmode');
  return {
    host: decodeURIComponent(url.hostname) || undefined,
    port: url.port ? Number(url.port) : undefined,
    user: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    database: decodeURIComponent(url.pathname.slice(1)) || undefined,
    ssl: sslmode && sslmode !== 'disable' ? { rejectUnauthorized: sslmode === 'verify-full' } : undefined,
  };
};

/**
 * adapter-pg maps no type for OID 18 (`"char"`, e.g. pg_class.relkind), which the engine's schema
 * describer selects. Its value is already a string: report the column as text.
 */
const reportCharAsText = (client: pg.PoolClient): void => {
  const patch = (result: unknown): unknown => {
    for (const one of [result].flat() as { fields?: { dataTypeID: number }[] }[]) {
      for (const field of one?.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
    }
    return result;
  };
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (err: unknown, res: unknown) => callback(err, err ? res : patch(res));
      return query(...args);
    }
    const out = query(...args);
    return out instanceof Promise ? out.then(patch) : out;
  };
};

/**
 * One connection that never idles out: the engine takes `pg_advisory_lock(72707369)` (serializing
 * concurrent deploys) and relies on the session to release it, so every statement must share it.
 */
const newPool = (config: pg.PoolConfig): pg.Pool => {
  const pool = new pg.Pool({ ...config, max: 1, idleTimeoutMillis: 0 });
  pool.on('connect', reportCharAsText);
  // An idle client dropped by the server must not crash the process; the next query reports it.
  pool.on('error', () => {});
  return pool;
};

/**
 * adapter-pg's executeScript splits on `;` (breaking `$$` bodies and atomicity): send the whole
 * script as one simple-protocol query, which PostgreSQL runs as one implicit transaction.
 */
const wholeScript = (adapter: SqlDriverAdapter, pool: pg.Pool): SqlDriverAdapter => {
  adapter.executeScript = async (script: string) => {
    try {
      await pool.query(script);
    } catch (error) {
      throw toDriverError(error);
    }
  };
  return adapter;
};

const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

export const pgMigrationFactory = (databaseUrl: string): MigrationAdapterFactory => {
  const config = pgConfigFromUrl(databaseUrl);
  const pools: pg.Pool[] = [];
  const shadows: (() => Promise<void>)[] = [];

  const open = async (cfg: pg.PoolConfig): Promise<SqlDriverAdapter> => {
    const pool = newPool(cfg);
    pools.push(pool);
    return wholeScript(await new PrismaPg(pool).connect(), pool);
  };

  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',
    connect: () => open(config),
    // Our own shadow database: adapter-pg's drops it before closing its pool (the DROP fails on
    // the open connections). Close first, then DROP … WITH (FORCE).
    connectToShadowDb: async () => {
      const name = `prisma_migrate_shadow_db_${randomUUID()}`;
      const admin = new pg.Client(config);
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
      } finally {
        await admin.end();
      }
      const pool = newPool({ ...config, database: name });
      const adapter = wholeScript(await new PrismaPg(pool).connect(), pool);
      let dropped: Promise<void> | undefined;
      const drop = () => {
        dropped ??= (async () => {
          await pool.end().catch(() => {});
          const cleanup = new pg.Client(config);
          await cleanup.connect();
          try {
            await cleanup.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
          } finally {
            await cleanup.end();
          }
        })();
        return dropped;
      };
      shadows.push(drop);
      adapter.dispose = drop;
      return adapter;
    },
  };

  let closing: Promise<void> | undefined;
  return {
    factory,
    close: () => {
      closing ??= (async () => {
        await Promise.all(shadows.map((drop) => drop()));
        await Promise.all(pools.map((pool) => pool.end().catch(() => {})));
      })();
      return closing;
    },
  };
};

// ---------------------------------------------------------------------------------------------
// PGlite (pglite-prisma-adapter)

/**
 * pglite-prisma-adapter 0.7.2 does not await `exec` in executeScript, so a failing migration would
 * be recorded as applied. `exec` runs the script in one implicit transaction, like PostgreSQL.
 */
const awaitedScript = (adapter: SqlDriverAdapter, db: PGlite): SqlDriverAdapter => {
  adapter.executeScript = async (script: string) => {
    try {
      await db.exec(script);
    } catch (error) {
      throw toDriverError(error);
    }
  };
  return adapter;
};

export const pgliteMigrationFactory = (db: PGlite): MigrationAdapterFactory => {
  const shadows: PGlite[] = [];
  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: 'postgres',
    adapterName: 'pglite-prisma-adapter',
    connect: async () => awaitedScript(await new PrismaPGlite(db).connect(), db),
    // The stock adapter opens an in-memory PGlite it never closes; ours is closed with the engine.
    connectToShadowDb: async () => {
      const shadow = new PGlite();
      shadows.push(shadow);
      await shadow.waitReady;
      const adapter = awaitedScript(await new PrismaPGlite(shadow).connect(), shadow);
      adapter.dispose = async () => {
        if (!shadow.closed) await shadow.close();
      };
      return adapter;
    },
  };
  return {
    factory,
    close: async () => {
      await Promise.all(shadows.filter((s) => !s.closed).map((s) => s.close()));
    },
  };
};
