import { existsSync } from 'node:fs';
import { mkdir, realpath, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { DbError } from './db-error';
import { resolvePgliteDir } from './paths';
import { lockPgliteDir, shownPath } from './pglite-lock';

/** A started PGlite and how to close it (on disk: closes PGlite, then releases the folder's lock). */
export type OpenedPglite = { pglite: PGlite; close(): Promise<void> };

/**
 * What PGlite throws when the files of a data folder make no sense to it: the wasm runtime aborts
 * (`RuntimeError: Aborted()`) or start-up gives up. Anything else (permissions, disk full) is not
 * damage and must not move the folder.
 */
const looksDamaged = (error: unknown): boolean =>
  error instanceof Error &&
  (error.name === 'RuntimeError' || /PGlite failed to initialize|Aborted\(\)/.test(error.message));

const damagedName = (dir: string, now: Date): string =>
  `${dir}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;

const describe = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);

const start = async (pglite: PGlite): Promise<PGlite> => {
  await pglite.waitReady;
  return pglite;
};

/**
 * Opens PGlite in `dir` (created if missing) under the folder's exclusive lock (DB_IN_USE when
 * another live process has it), or in memory. A folder PGlite cannot open is moved aside to
 * `<dir>.damaged-<time>` and DB_DAMAGED says where: this start stops there, so nobody trades on a
 * silently emptied database, and the next start creates a fresh one (packages/db/README.md).
 */
export const openPglite = async (dir?: string | 'memory'): Promise<OpenedPglite> => {
  if (dir === 'memory') {
    const pglite = await start(new PGlite());
    return { pglite, close: async () => pglite.close() };
  }
  await mkdir(resolvePgliteDir(dir), { recursive: true });
  // One lock per folder, however it is named (a symlink, ./x and x): lock the real path.
  const path = await realpath(resolvePgliteDir(dir));
  const lock = lockPgliteDir(path);
  const hadData = existsSync(join(path, 'PG_VERSION'));
  let pglite: PGlite;
  try {
    pglite = await start(new PGlite(path));
  } catch (error) {
    if (!hadData || !looksDamaged(error)) {
      lock.release();
      throw error;
    }
    const aside = damagedName(path, new Date());
    try {
      await rename(path, aside);
    } finally {
      lock.release();
    }
    throw new DbError(
      'DB_DAMAGED',
      `The embedded database in ${shownPath(path)} could not be opened (${describe(error)}). ` +
        `It was moved to ${shownPath(aside)}; nothing was deleted. The next start creates a new, empty ` +
        `database in ${shownPath(path)}. To keep your data instead, restore a backup into ${shownPath(path)} ` +
        'before starting again.',
      { cause: error },
    );
  }
  return {
    pglite,
    close: async () => {
      try {
        if (!pglite.closed) await pglite.close();
      } finally {
        lock.release();
      }
    },
  };
};
