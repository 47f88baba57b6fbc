import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, realpath, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb, DbError } from '../src/index';

const folders: string[] = [];
afterAll(async () => {
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A folder with a table and a row, closed cleanly. */
const folderWithData = async (): Promise<string> => {
  // Real path: messages name the folder as the lock resolved it.
  const base = await realpath(await mkdtemp(join(tmpdir(), 'gridbot-pglite-')));
  folders.push(base);
  const dir = join(base, 'pglite');
  const db = await createDb({ pgliteDir: dir });
  await db.prisma.$executeRawUnsafe('CREATE TABLE kept (note text)');
  await db.prisma.$executeRawUnsafe("INSERT INTO kept VALUES ('precious')");
  await db.close();
  return dir;
};

const corruptions = {
  // The checkpoint pg_control points at is gone: the wasm runtime aborts (RuntimeError: Aborted()).
  'emptied write-ahead log': async (dir: string) => {
    const wal = join(dir, 'pg_wal');
    for (const name of await readdir(wal))
      if (/^[0-9A-F]{24}$/.test(name)) await truncate(join(wal, name), 0);
  },
  // Garbage control file: PGlite gives up starting.
  'garbled control file': async (dir: string) => {
    const control = await readFile(join(dir, 'global', 'pg_control'));
    await writeFile(join(dir, 'global', 'pg_control'), Buffer.alloc(control.length, 0x5a));
  },
} as const;

describe('a folder PGlite cannot open', () => {
  it.each(Object.keys(corruptions) as Array<keyof typeof corruptions>)(
    '(%s) is moved aside with a typed error that says where, and the next start is fresh',
    async (kind) => {
      const dir = await folderWithData();
      await corruptions[kind](dir);

      const failure = await createDb({ pgliteDir: dir }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(DbError);
      const { code, message } = failure as DbError;
      expect(code).toBe('DB_DAMAGED');
      const aside = (await readdir(dirname(dir))).find((name) => name.startsWith('pglite.damaged-'));
      expect(aside).toBeDefined();
      expect(message).toContain(`in ${dir} could not be opened`);
      expect(message).toContain(`moved to ${join(dirname(dir), aside as string)}; nothing was deleted`);
      expect(message).toContain('The next start creates a new, empty database');
      // The damaged copy is whole (still has its files), and nothing is left in its place.
      expect(existsSync(join(dirname(dir), aside as string, 'PG_VERSION'))).toBe(true);
      expect(existsSync(dir)).toBe(false);

      const fresh = await createDb({ pgliteDir: dir });
      const tables = await fresh.prisma.$queryRawUnsafe<{ n: number }[]>(
        "SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'kept'",
      );
      expect(tables).toEqual([{ n: 0 }]);
      await fresh.close();
    },
    120_000,
  );
});
