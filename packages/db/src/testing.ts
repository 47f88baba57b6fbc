import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { createDb, type Db, dbFromPglite } from './client';
import { applyMigrations, readMigrationsList } from './migrations';
import { findMigrationsDir, findRepoRoot, findUp } from './paths';

/**
 * Fresh, migrated databases for tests: `@gridbot/db/testing`.
 *
 * - DATABASE_URL set: a uniquely named database on that server, cloned from a template that holds
 *   the migrated schema, dropped (WITH (FORCE)) on close. The template `gridbot_tpl_<hash of the
 *   migrations>` is built once, under an advisory lock so parallel vitest workers build it only once,
 *   and is kept between runs as a cache (a new hash replaces it).
 * - otherwise: an in-memory PGlite started from a snapshot of a freshly migrated data dir (skips
 *   initdb and migrations: ≈0.5 s instead of ≈3 s), cached in node_modules/.cache/gridbot-db.
 */
export type TestDb = Db & {
  /** Connection URL of the test database (PostgreSQL only). */
  url?: string;
};

export type CreateTestDbOptions = {
  /** Defaults to process.env.DATABASE_URL; empty means PGlite. */
  databaseUrl?: string;
  migrationsDir?: string;
};

export const createTestDb = async (options: CreateTestDbOptions = {}): Promise<TestDb> => {
  const serverUrl = options.databaseUrl ?? process.env.DATABASE_URL;
  const migrationsDir = options.migrationsDir ?? findMigrationsDir();
  return serverUrl ? createPostgresTestDb(serverUrl, migrationsDir) : createPgliteTestDb(migrationsDir);
};

// ---------------------------------------------------------------------------------------------
// Shared

/** Identifies the migration set: a template or snapshot is reused only for identical migrations. */
const migrationsHash = async (migrationsDir: string): Promise<string> => {
  const list = await readMigrationsList(migrationsDir);
  const hash = createHash('sha256');
  for (const dir of list.migrationDirectories) {
    const file = dir.migrationFile.content;
    hash.update(`${dir.path}\0${file.tag === 'ok' ? file.value : `!${file.value}`}\0`);
  }
  return hash.digest('hex').slice(0, 16);
};

const memo = <T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> => {
  let value = cache.get(key);
  if (!value) {
    value = make();
    cache.set(key, value);
    // A failure must not stick: the next test retries.
    value.catch(() => cache.delete(key));
  }
  return value;
};

// ---------------------------------------------------------------------------------------------
// PGlite

const snapshots = new Map<string, Promise<Blob>>();

/**
 * The migrated data dir, built once per process and kept on disk in node_modules/.cache (keyed by
 * migrations and PGlite version): vitest runs each test file in a fresh process, and building costs
 * ≈3 s (initdb + migrations) where loading the file costs ≈0.05 s.
 */
const migratedSnapshot = async (migrationsDir: string): Promise<Blob> => {
  const key = `${await migrationsHash(migrationsDir)}-${pgliteVersion()}`;
  return memo(snapshots, key, async () => {
    const cacheDir = snapshotCacheDir();
    const file = cacheDir && join(cacheDir, `pglite-${key}.tar`);
    if (file) {
      const cached = await readFile(file).catch(() => undefined);
      if (cached) return new Blob([cached]);
    }
    const base = new PGlite();
    let snapshot: Blob;
    try {
      await applyMigrations({ kind: 'pglite', pglite: base }, { migrationsDir });
      // Uncompressed: gzip would cost more time on every load than it saves.
      snapshot = await base.dumpDataDir('none');
    } finally {
      await base.close();
    }
    if (cacheDir && file) await writeSnapshot(cacheDir, file, snapshot).catch(() => {});
    return snapshot;
  });
};

const pgliteVersion = (): string => {
  try {
    const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    const pkg = findUp('package.json', [dirname(entry)]);
    return pkg
      ? (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string }).version
      : 'x';
  } catch {
    return 'x';
  }
};

const snapshotCacheDir = (): string | undefined => {
  const root = findRepoRoot();
  return root && existsSync(join(root, 'node_modules'))
    ? join(root, 'node_modules', '.cache', 'gridbot-db')
    : undefined;
};

/** Atomic (parallel workers may write the same key) and replaces snapshots of other keys. */
const writeSnapshot = async (cacheDir: string, file: string, snapshot: Blob): Promise<void> => {
  await mkdir(cacheDir, { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, new Uint8Array(await snapshot.arrayBuffer()));
  await rename(tmp, file);
  for (const name of await readdir(cacheDir)) {
    if (name.startsWith('pglite-') && name.endsWith('.tar') && join(cacheDir, name) !== file) {
      await rm(join(cacheDir, name), { force: true });
    }
  }
};

const createPgliteTestDb = async (migrationsDir: string): Promise<TestDb> => {
  const pglite = new PGlite({ loadDataDir: await migratedSnapshot(migrationsDir) });
  await pglite.waitReady;
  return dbFromPglite(pglite);
};

// ---------------------------------------------------------------------------------------------
// PostgreSQL

const TEMPLATE_PREFIX = 'gridbot_tpl_';
const TEST_DB_PREFIX = 'gridbot_test_';
/** Test databases left by killed runs are dropped once older than this. */
const STALE_TEST_DB_MS = 6 * 60 * 60 * 1000;
/** Key of the advisory lock that serializes template builds (any constant; "gridbot_tpl"). */
const TEMPLATE_LOCK_KEY = 0x67726964;

const templates = new Map<string, Promise<string>>();

const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

const withDatabase = (url: string, database: string): string => {
  const parsed = new URL(url);
  parsed.pathname = `/${encodeURIComponent(database)}`;
  return parsed.toString();
};

const withClient = async <T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};

const isTemplate = async (client: pg.Client, name: string): Promise<boolean | undefined> => {
  const { rows } = await client.query<{ datistemplate: boolean }>(
    'SELECT datistemplate FROM pg_database WHERE datname = $1',
    [name],
  );
  return rows[0]?.datistemplate;
};

/** Builds (or finds) the migrated template database; returns its name. */
const ensureTemplate = (serverUrl: string, migrationsDir: string): Promise<string> =>
  migrationsHash(migrationsDir).then((hash) =>
    memo(templates, `${serverUrl}\0${hash}`, () =>
      withClient(serverUrl, async (client) => {
        const name = `${TEMPLATE_PREFIX}${hash}`;
        if (await isTemplate(client, name)) return name;
        // Session lock: released by unlock or when this connection ends (even if we crash).
        await client.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
        try {
          const state = await isTemplate(client, name);
          if (state) return name; // built by another worker while we waited
          // Exists but not marked: a build that died halfway.
          if (state === false) await client.query(`DROP DATABASE ${quoteIdent(name)} WITH (FORCE)`);
          await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
          await applyMigrations(
            { kind: 'postgres', databaseUrl: withDatabase(serverUrl, name) },
            { migrationsDir },
          );
          // Marking it is what makes it usable; no connections means nobody alters it by accident.
          await client.query(
            `ALTER DATABASE ${quoteIdent(name)} WITH ALLOW_CONNECTIONS false IS_TEMPLATE true`,
          );
          await dropOtherTemplates(client, name);
          return name;
        } finally {
          await client.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
        }
      }),
    ),
  );

const dropDatabases = async (client: pg.Client, names: string[]): Promise<void> => {
  for (const name of names) {
    try {
      await client.query(`ALTER DATABASE ${quoteIdent(name)} WITH IS_TEMPLATE false`);
      await client.query(`DROP DATABASE ${quoteIdent(name)} WITH (FORCE)`);
    } catch {
      // in use by a concurrent run of another checkout, or already gone: leave it
    }
  }
};

const listDatabases = async (client: pg.Client, prefix: string): Promise<string[]> => {
  const { rows } = await client.query<{ datname: string }>(
    'SELECT datname FROM pg_database WHERE datname LIKE $1',
    [`${prefix}%`],
  );
  return rows.map((row) => row.datname);
};

/** Templates of older migration sets; only when a new template replaces them. */
const dropOtherTemplates = async (client: pg.Client, current: string): Promise<void> =>
  dropDatabases(
    client,
    (await listDatabases(client, TEMPLATE_PREFIX)).filter((name) => name !== current),
  );

const sweeps = new Map<string, Promise<void>>();

/** Test databases of killed runs (older than STALE_TEST_DB_MS); once per process, best effort. */
const sweepStaleTestDatabases = (serverUrl: string): Promise<void> =>
  memo(sweeps, serverUrl, () =>
    withClient(serverUrl, async (client) => {
      const stale = (await listDatabases(client, TEST_DB_PREFIX)).filter((name) => {
        const created = Number.parseInt(name.slice(TEST_DB_PREFIX.length).split('_')[0] ?? '', 36);
        return Date.now() - created > STALE_TEST_DB_MS;
      });
      await dropDatabases(client, stale);
    }).catch(() => {}),
  );

const createPostgresTestDb = async (serverUrl: string, migrationsDir: string): Promise<TestDb> => {
  const [template] = await Promise.all([
    ensureTemplate(serverUrl, migrationsDir),
    sweepStaleTestDatabases(serverUrl),
  ]);
  // The creation time in the name lets a later run recognise and drop it if this process dies.
  const name = `${TEST_DB_PREFIX}${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, (client) =>
    client.query(`CREATE DATABASE ${quoteIdent(name)} TEMPLATE ${quoteIdent(template)}`),
  );
  const url = withDatabase(serverUrl, name);
  const db = await createDb({ databaseUrl: url, poolMax: 4 });
  let closing: Promise<void> | undefined;
  return {
    ...db,
    url,
    close: () => {
      closing ??= (async () => {
        await db.close();
        await withClient(serverUrl, (client) =>
          client.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`),
        );
      })();
      return closing;
    },
  };
};
