import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isDbError } from '../src/db-error';
import { lockPgliteDir } from '../src/pglite-lock';
import { type Line, startChild } from './support/child-process';

// Real processes on a real folder: the lock exists because separate processes corrupt one PGlite
// folder, so nothing less than separate processes can show it works.

const folders: string[] = [];
const newFolder = async () => {
  const base = await mkdtemp(join(tmpdir(), 'gridbot-pglite-'));
  folders.push(base);
  return join(base, 'pglite');
};
afterAll(async () => {
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

const opener = (dir: string, writes: number | 'forever') =>
  startChild('./pglite-child.ts', [dir, String(writes)]);
const isOpen = (line: Line) => line.event === 'open';
const openOrError = (line: Line) => line.event === 'open' || line.event === 'error';

/** Opens, reads what is there, closes. */
const readBack = async (dir: string): Promise<Line> => {
  const child = opener(dir, 0);
  const open = await child.next(isOpen);
  child.stop();
  expect(await child.exited).toBe(0);
  return open;
};

describe('the embedded database folder has one owner at a time', () => {
  it('refuses a second opener while the first runs, naming it, and the data stays intact', async () => {
    const dir = await newFolder();
    const first = opener(dir, 20);
    await first.next((line) => line.event === 'idle');

    const second = opener(dir, 5);
    const refused = await second.next(openOrError);
    expect(refused).toMatchObject({ event: 'error', code: 'DB_IN_USE' });
    expect(refused.message).toContain(`in use by process ${first.process.pid}`);
    expect(refused.message).toContain('Stop it first, or set PGLITE_DIR to another folder.');
    expect(await second.exited).toBe(2);

    first.stop();
    expect(await first.exited).toBe(0);
    const after = await readBack(dir);
    expect(after).toMatchObject({ entries: 20, total: 20 });
    expect(after.ids).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  }, 120_000);

  it('sees through a symlink: the same folder under another name is the same lock', async () => {
    const dir = await newFolder();
    const first = opener(dir, 0);
    await first.next((line) => line.event === 'idle');
    const alias = `${dir}-alias`;
    await symlink(dir, alias);
    const second = opener(alias, 0);
    expect(await second.next(openOrError)).toMatchObject({ event: 'error', code: 'DB_IN_USE' });
    first.stop();
    expect(await first.exited).toBe(0);
  }, 120_000);

  it('lets exactly one of several processes win when they lock at the same moment', async () => {
    const dir = await newFolder();
    for (let round = 0; round < 3; round += 1) {
      const racers = Array.from({ length: 6 }, () => startChild('./lock-child.ts', [dir]));
      // Wait until every racer is loaded and listening, then say "go" to all at once.
      await Promise.all(racers.map((racer) => racer.next((line) => line.ready === true)));
      for (const racer of racers) racer.process.stdin?.write('go\n');
      const results = await Promise.all(racers.map((racer) => racer.next()));
      expect(results.filter((r) => r.won)).toHaveLength(1);
      expect(results.filter((r) => !r.won).map((r) => r.code)).toEqual(Array(5).fill('DB_IN_USE'));
      for (const racer of racers) racer.stop();
      await Promise.all(racers.map((racer) => racer.exited));
    }
    // Every winner released on exit: nothing is left claimed.
    expect((await readdir(`${dir}.lock`)).filter((name) => name.endsWith('.claim'))).toEqual([]);
  }, 120_000);

  it('opens with every committed write after the opener is killed (-9) mid-write, again and again', async () => {
    const dir = await newFolder();
    const committed: number[] = [];
    for (let round = 0; round < 5; round += 1) {
      const writer = opener(dir, 'forever');
      const open = await writer.next(openOrError);
      // The killed owner's claim is still on disk: the new opener took it over.
      expect(open.event).toBe('open');
      expect(open.ids).toEqual(expect.arrayContaining(committed));
      expect(open.total).toBe(open.entries);
      const killAfter = 1 + Math.floor(Math.random() * 40);
      for (let i = 0; i < killAfter; i += 1) committed.push((await writer.next()).id as number);
      writer.process.kill('SIGKILL');
      expect(await writer.exited).toBe('SIGKILL');
    }
    const last = await readBack(dir);
    expect(last.ids).toEqual(expect.arrayContaining(committed));
    expect(last.total).toBe(last.entries);
  }, 240_000);
});

describe('claims left behind', () => {
  /** A claim as another opener would have written it. */
  const leaveClaim = async (dir: string, pid: number, host: string, owner: Record<string, unknown>) => {
    await mkdir(`${dir}.lock`, { recursive: true });
    await writeFile(
      join(`${dir}.lock`, `${pid}@${host}~0123abcd.claim`),
      JSON.stringify({ pid, host, ...owner }),
    );
  };
  const refusal = (dir: string) => {
    try {
      lockPgliteDir(dir).release();
      return undefined;
    } catch (error) {
      if (!isDbError(error, 'DB_IN_USE')) throw error;
      return error.message;
    }
  };

  it('takes over the claim of a pid that now belongs to another process', async () => {
    const dir = await newFolder();
    // This very process, but with another start tick: the pid was reused after the owner died.
    await leaveClaim(dir, process.pid, hostname(), { startedAt: '2020-01-01T00:00:00.000Z', procStart: '1' });
    expect(refusal(dir)).toBeUndefined();
    expect(await readdir(`${dir}.lock`)).toEqual([]);
  });

  it('refuses a second lock in the same process, and an owner on another host', async () => {
    const dir = await newFolder();
    const held = lockPgliteDir(dir);
    expect(refusal(dir)).toMatch(new RegExp(`in use by process ${process.pid} \\(started `));
    held.release();
    expect(refusal(dir)).toBeUndefined();

    await leaveClaim(dir, 4242, 'other-machine', { startedAt: '2026-01-01T00:00:00.000Z' });
    expect(refusal(dir)).toBe(
      `The embedded database in ${dir} is in use by process 4242 on host other-machine ` +
        '(started 2026-01-01T00:00:00.000Z). Stop it first, or set PGLITE_DIR to another folder.',
    );
  });
});
