// Public API of @gridbot/db. Test helpers live in '@gridbot/db/testing' so they never reach a bundle.
export { type CreateDbOptions, createDb, type Db, type DbKind } from './client';
export { DbError, type DbErrorCode, isDbError } from './db-error';
// PrismaClient, the Prisma namespace (Prisma.Decimal, Prisma.PrismaClientKnownRequestError…),
// model types (User, UserConfig) and enums, all from the generated client.
export * from './generated/prisma/client';
export {
  applyMigrations,
  type MigrationOptions,
  type MigrationStatus,
  type MigrationTarget,
  migrationStatus,
} from './migrations';
export { type OpenedPglite, openPglite } from './open-pglite';
export { DEFAULT_PGLITE_DIR, findMigrationsDir, resolvePgliteDir } from './paths';
export { pingDatabase } from './ping-database';
