// `prisma migrate dev|deploy|status` for this repo. The Prisma CLI's migrate commands need the native
// schema engine, which cannot be downloaded here; this drives @prisma/schema-engine-wasm instead and
// writes the same files and `_prisma_migrations` rows.
//
//   npm run db:migrate -- dev --name <name> [--create-only] [--accept-data-loss]
//   npm run db:migrate -- deploy
//   npm run db:migrate -- status
//
// Target: PostgreSQL when DATABASE_URL is set, else PGlite in PGLITE_DIR (default .data/pglite,
// relative to the repo root). Stop the API first when it uses the same PGlite folder.
import { parseArgs } from 'node:util';
import { resolveSecretFiles } from '@gridbot/config';
import { migrateDev } from '../src/migrate-dev';
import { applyMigrations, type MigrationTarget, migrationStatus } from '../src/migrations';
import { openPglite } from '../src/open-pglite';
import { findMigrationsDir, findRepoRoot, findSchemaPath, resolvePgliteDir } from '../src/paths';

const USAGE = `Usage: npm run db:migrate -- <command>
  dev --name <name> [--create-only] [--accept-data-loss]
                 apply pending migrations, create one from the schema diff, apply it
  deploy         apply pending migrations
  status         list pending / failed migrations (exit 1 unless up to date)
Target: DATABASE_URL (PostgreSQL) or else PGlite at PGLITE_DIR (default .data/pglite).`;

const main = async (): Promise<number> => {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      name: { type: 'string', short: 'n' },
      'create-only': { type: 'boolean' },
      'accept-data-loss': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0];
  if (values.help || !command || !['dev', 'deploy', 'status'].includes(command)) {
    process.stdout.write(`${USAGE}\n`);
    return values.help ? 0 : 2;
  }

  // DATABASE_URL_FILE too (docker secrets), as every app reads it.
  const env = resolveSecretFiles(process.env);
  const databaseUrl = env.DATABASE_URL || undefined;
  const pgliteDir = databaseUrl ? undefined : resolvePgliteDir(env.PGLITE_DIR || undefined);
  const opened = pgliteDir ? await openPglite(pgliteDir) : undefined;
  const pglite = opened?.pglite;
  const target: MigrationTarget = pglite
    ? { kind: 'pglite', pglite }
    : { kind: 'postgres', databaseUrl: databaseUrl as string };
  process.stdout.write(
    `Target: ${pglite ? `PGlite ${pgliteDir}` : `PostgreSQL ${redact(databaseUrl as string)}`}\n`,
  );

  try {
    if (command === 'dev') {
      const root = findRepoRoot();
      if (!root) throw new Error('prisma/schema.prisma not found');
      await migrateDev(target, {
        schemaPath: findSchemaPath(),
        // dev may create the first migration, so the folder need not exist yet.
        migrationsDir: `${root}/prisma/migrations`,
        name: values.name,
        createOnly: values['create-only'],
        acceptDataLoss: values['accept-data-loss'],
      });
      return 0;
    }
    const migrationsDir = findMigrationsDir();
    if (command === 'deploy') {
      const { appliedMigrationNames } = await applyMigrations(target, { migrationsDir });
      process.stdout.write(
        appliedMigrationNames.length > 0
          ? `Applied ${appliedMigrationNames.length} migration(s):\n${appliedMigrationNames.map((n) => `  ${n}\n`).join('')}`
          : 'No pending migrations to apply.\n',
      );
      return 0;
    }
    const status = await migrationStatus(target, { migrationsDir });
    process.stdout.write(`${status.migrationNames.length} migration(s) in ${migrationsDir}\n`);
    for (const name of status.pendingMigrationNames) process.stdout.write(`  pending: ${name}\n`);
    for (const name of status.failedMigrationNames) process.stdout.write(`  failed:  ${name}\n`);
    for (const name of status.editedMigrationNames) process.stdout.write(`  edited after apply: ${name}\n`);
    if (
      status.history?.diagnostic === 'migrationsDirectoryIsBehind' ||
      status.history?.diagnostic === 'historiesDiverge'
    ) {
      for (const name of status.history.unpersistedMigrationNames)
        process.stdout.write(`  applied but not in folder: ${name}\n`);
    }
    process.stdout.write(
      status.upToDate ? 'Database schema is up to date.\n' : 'Database schema is NOT up to date.\n',
    );
    return status.upToDate ? 0 : 1;
  } finally {
    await opened?.close();
  }
};

const redact = (url: string): string => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

// process.exit: the engine's wasm runtime may keep timers alive after the work is done.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
