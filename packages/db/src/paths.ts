import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where to start looking for the repository: the working directory first (apps are started from the
 * repo or their own folder), then this module's folder, because the code may run bundled from
 * apps/api/dist or be imported from a test whose cwd is elsewhere.
 */
const searchStarts = (): string[] => {
  const starts = [process.cwd()];
  try {
    // import.meta.url is empty when bundled to CJS; the cwd alone must then suffice.
    if (import.meta.url) starts.push(dirname(fileURLToPath(import.meta.url)));
  } catch {
    // not a file: URL (e.g. data: or bundled), ignore
  }
  return starts;
};

/** Nearest folder at or above one of the starts that contains `relative`. */
export const findUp = (relative: string, starts: string[] = searchStarts()): string | undefined => {
  for (const start of starts) {
    let dir = resolve(start);
    for (;;) {
      if (existsSync(join(dir, relative))) return dir;
      const parent = dirname(dir);
      if (parent === dir) break;
      dir = parent;
    }
  }
  return undefined;
};

/** The repository root: the folder holding prisma/schema.prisma (or only prisma/migrations in a deploy image). */
export const findRepoRoot = (): string | undefined =>
  findUp(join('prisma', 'schema.prisma')) ?? findUp(join('prisma', 'migrations'));

export const findMigrationsDir = (): string => {
  const root = findUp(join('prisma', 'migrations'));
  if (!root) {
    throw new Error(
      `prisma/migrations not found above ${searchStarts().join(' or ')}; pass migrationsDir explicitly`,
    );
  }
  return join(root, 'prisma', 'migrations');
};

export const findSchemaPath = (): string => {
  const root = findUp(join('prisma', 'schema.prisma'));
  if (!root) throw new Error(`prisma/schema.prisma not found above ${searchStarts().join(' or ')}`);
  return join(root, 'prisma', 'schema.prisma');
};

export const DEFAULT_PGLITE_DIR = '.data/pglite';

/**
 * Absolute PGlite data folder. Relative paths resolve against the repo root, not the cwd, so that
 * `npm run db:migrate` (cwd packages/db) and the API (cwd root or apps/api) open the same database.
 */
export const resolvePgliteDir = (dir: string = DEFAULT_PGLITE_DIR): string => {
  if (isAbsolute(dir)) return dir;
  return resolve(findRepoRoot() ?? process.cwd(), dir);
};
