import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type {
  DiagnoseMigrationHistoryOutput,
  MigrationList,
  SchemaFilter,
} from '@prisma/schema-engine-wasm/schema_engine_bg';
import { type MigrationAdapterFactory, pgliteMigrationFactory, pgMigrationFactory } from './engine/adapters';
import { loadSchemaEngineWasm, type SchemaEngine } from './engine/wasm';
import { findMigrationsDir } from './paths';

/** The database the schema engine works on. A `Db` from createDb() carries one as `target`. */
export type MigrationTarget = { kind: 'postgres'; databaseUrl: string } | { kind: 'pglite'; pglite: PGlite };

export type MigrationOptions = {
  /** Defaults to the nearest prisma/migrations above the cwd or this module. */
  migrationsDir?: string;
  /** Engine log lines (JSON). Default: warnings and errors to stderr. */
  onLog?: (line: string) => void;
};

export const LOCKFILE_NAME = 'migration_lock.toml';
export const MIGRATION_FILE_NAME = 'migration.sql';

/** No external tables or enums (prisma.config.ts has none). */
export const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };

/** The migrations folder as the engine wants it: the same reading as the Prisma CLI does. */
export const readMigrationsList = async (migrationsDir: string): Promise<MigrationList> => {
  const lockContent = await readFile(join(migrationsDir, LOCKFILE_NAME), 'utf8').catch(() => null);
  const entries = await readdir(migrationsDir, { withFileTypes: true }).catch(() => []);
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name);
  dirs.sort((a, b) => a.localeCompare(b));
  const migrationDirectories = await Promise.all(
    dirs.map(async (name) => ({
      path: name,
      migrationFile: {
        path: MIGRATION_FILE_NAME,
        content: await readFile(join(migrationsDir, name, MIGRATION_FILE_NAME), 'utf8').then(
          (value) => ({ tag: 'ok' as const, value }),
          (error: Error) => ({ tag: 'error' as const, value: error.message }),
        ),
      },
    })),
  );
  return {
    baseDir: migrationsDir,
    lockfile: { path: LOCKFILE_NAME, content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories,
  };
};

const defaultLog = (line: string): void => {
  try {
    const { level, fields } = JSON.parse(line) as { level?: string; fields?: { message?: string } };
    if (level === 'WARN' || level === 'ERROR')
      process.stderr.write(`schema-engine ${level}: ${fields?.message ?? line}\n`);
  } catch {
    process.stderr.write(`schema-engine: ${line}\n`);
  }
};

export type EngineSession = { engine: SchemaEngine; close(): Promise<void> };

/**
 * A schema engine bound to `target`. `schema` (the Prisma schema text) is needed only to diff
 * (migrate dev). Always close(): it frees the engine and ends the pools / shadow databases it opened.
 */
export const openEngine = async (
  target: MigrationTarget,
  options: { schema?: { path: string; content: string }; onLog?: (line: string) => void } = {},
): Promise<EngineSession> => {
  const glue = await loadSchemaEngineWasm();
  const adapters: MigrationAdapterFactory =
    target.kind === 'postgres'
      ? pgMigrationFactory(target.databaseUrl)
      : pgliteMigrationFactory(target.pglite);
  try {
    const engine = await glue.SchemaEngine.new(
      { datamodels: options.schema ? [[options.schema.path, options.schema.content]] : undefined },
      options.onLog ?? defaultLog,
      // Unbound, the engine calls the factory's methods with `this === null`.
      bindMigrationAwareSqlAdapterFactory(adapters.factory),
    );
    let closed = false;
    return {
      engine,
      close: async () => {
        if (closed) return;
        closed = true;
        engine.free();
        await adapters.close();
      },
    };
  } catch (error) {
    await adapters.close();
    throw error;
  }
};

/**
 * `migrate deploy`: applies the pending migrations of `migrationsDir` through the schema engine and
 * records them in `_prisma_migrations`, exactly as the Prisma CLI would. Safe to call on every start.
 */
export const applyMigrations = async (
  target: MigrationTarget | { target: MigrationTarget },
  options: MigrationOptions = {},
): Promise<{ appliedMigrationNames: string[] }> => {
  const t = 'target' in target ? target.target : target;
  const migrationsList = await readMigrationsList(options.migrationsDir ?? findMigrationsDir());
  const session = await openEngine(t, { onLog: options.onLog });
  try {
    return await session.engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
  } finally {
    await session.close();
  }
};

export type MigrationStatus = DiagnoseMigrationHistoryOutput & {
  /** Every migration folder, in order. */
  migrationNames: string[];
  /** Folders not applied to the database (also in `history` when the database is behind). */
  pendingMigrationNames: string[];
  /** True when nothing is pending, failed, edited or missing from the folder. */
  upToDate: boolean;
};

/** `migrate status`, without a shadow database. */
export const migrationStatus = async (
  target: MigrationTarget | { target: MigrationTarget },
  options: MigrationOptions = {},
): Promise<MigrationStatus> => {
  const t = 'target' in target ? target.target : target;
  const migrationsList = await readMigrationsList(options.migrationsDir ?? findMigrationsDir());
  const session = await openEngine(t, { onLog: options.onLog });
  try {
    const diagnosis = await session.engine.diagnoseMigrationHistory({
      migrationsList,
      optInToShadowDatabase: false,
      filters: NO_FILTERS,
    });
    const migrationNames = migrationsList.migrationDirectories.map((d) => d.path);
    const history = diagnosis.history;
    const pendingMigrationNames = !diagnosis.hasMigrationsTable
      ? migrationNames
      : history && history.diagnostic !== 'migrationsDirectoryIsBehind'
        ? history.unappliedMigrationNames
        : [];
    return {
      ...diagnosis,
      migrationNames,
      pendingMigrationNames,
      upToDate:
        history === null &&
        diagnosis.failedMigrationNames.length === 0 &&
        diagnosis.editedMigrationNames.length === 0 &&
        (diagnosis.hasMigrationsTable || migrationNames.length === 0),
    };
  } finally {
    await session.close();
  }
};
