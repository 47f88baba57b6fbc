import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { DbError } from './db-error';

/** Who holds (or held) an embedded database folder. */
export type LockOwner = {
  pid: number;
  host: string;
  /** When the owner process started (ISO 8601), for the person reading the error. */
  startedAt: string;
  /** Linux: the kernel's boot id and the process's start tick, which tell a reused pid apart. */
  bootId?: string;
  procStart?: string;
};

export type PgliteDirLock = {
  /** The folder holding the claims: `<data folder>.lock`. */
  lockDir: string;
  /** Releases the lock (idempotent, synchronous: it also runs on process exit). */
  release(): void;
};

type Claim = { file: string; pid: number; host: string; owner?: LockOwner };

const CLAIM = /^(\d+)@([A-Za-z0-9._-]+)~([0-9a-f]+)\.claim$/;
/** Rounds of "claim, then look for rivals" before giving up; each lost round means a rival claimed. */
const MAX_ROUNDS = 20;

/** The hostname as it may appear in a file name (it is compared in that form too). */
const hostTag = (): string => hostname().replace(/[^A-Za-z0-9.-]/g, '_');

const readOptional = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
};

const bootId = (): string | undefined => readOptional('/proc/sys/kernel/random/boot_id');

/**
 * Linux /proc/<pid>/stat: field 3 (state) and field 22 (start time in ticks since boot). Fields are
 * counted after the name, which is in parentheses and may hold spaces.
 */
const procStat = (pid: number): { state?: string; start?: string } => {
  const stat = readOptional(`/proc/${pid}/stat`);
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ') ?? [];
  return { state: fields[0], start: fields[19] };
};

const me = (): LockOwner => ({
  pid: process.pid,
  host: hostname(),
  startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
  bootId: bootId(),
  procStart: procStat(process.pid).start,
});

const pidExists = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Whether a claim's owner may still be running. Another host cannot be checked, so it counts as
 * alive; on this host the pid must exist, not be a zombie and, where Linux tells us, be the same
 * process (a container restarted with the same hostname gets the same pid, but a new start tick).
 */
const isAlive = (claim: Claim): boolean => {
  if (claim.host !== hostTag()) return true;
  if (!pidExists(claim.pid)) return false;
  const { state, start } = procStat(claim.pid);
  // A zombie has exited; only its parent has not collected it yet.
  if (state === 'Z') return false;
  const owner = claim.owner;
  if (!owner) return true;
  const boot = bootId();
  if (owner.bootId && boot && owner.bootId !== boot) return false;
  return !(owner.procStart && start && owner.procStart !== start);
};

const readClaims = (lockDir: string): Claim[] => {
  const claims: Claim[] = [];
  for (const name of readdirSync(lockDir)) {
    const match = CLAIM.exec(name);
    if (!match) continue;
    const file = join(lockDir, name);
    const text = readOptional(file);
    if (text === undefined) continue; // released meanwhile
    let owner: LockOwner | undefined;
    try {
      owner = JSON.parse(text) as LockOwner;
    } catch {
      // Created but not written yet: the name alone (pid, host) judges it.
    }
    claims.push({ file, pid: Number(match[1]), host: match[2] as string, owner });
  }
  return claims;
};

const unlinkQuietly = (file: string): void => {
  try {
    unlinkSync(file);
  } catch {
    // already gone
  }
};

export const shownPath = (path: string): string => {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
};

const inUse = (dataDir: string, claim: Claim): DbError => {
  const started = claim.owner?.startedAt ? `started ${claim.owner.startedAt}` : 'starting';
  const where = claim.host === hostTag() ? '' : ` on host ${claim.owner?.host ?? claim.host}`;
  return new DbError(
    'DB_IN_USE',
    `The embedded database in ${shownPath(dataDir)} is in use by process ${claim.pid}${where} (${started}). ` +
      'Stop it first, or set PGLITE_DIR to another folder.',
  );
};

/**
 * Takes the exclusive lock on a PGlite data folder, or throws DB_IN_USE naming the live owner.
 * PGlite itself lets any number of processes open one folder, and two writers corrupt it for good.
 *
 * Each opener creates its own claim file in `<folder>.lock/` (O_EXCL; pid and host in the name,
 * start time inside), then lists the claims: it holds the lock only if no other live claim exists,
 * else it withdraws its own. Two openers that both claim and both list cannot both see no rival
 * (the later lister sees the earlier claim), so at most one wins; if both withdraw, the next round
 * decides. Claims of dead owners (pid gone on this host, or reused by another process) are deleted
 * without touching anyone else's: there is no "take over" step that could remove a live claim.
 */
export const lockPgliteDir = (dataDir: string): PgliteDirLock => {
  const lockDir = `${dataDir}.lock`;
  mkdirSync(lockDir, { recursive: true });
  const owner = me();
  const file = join(lockDir, `${owner.pid}@${hostTag()}~${randomBytes(8).toString('hex')}.claim`);
  /** Other live claims; dead ones are deleted on the way. */
  const rivalsOf = (): Claim[] => {
    const live: Claim[] = [];
    for (const claim of readClaims(lockDir)) {
      if (claim.file === file) continue;
      if (isAlive(claim)) live.push(claim);
      else unlinkQuietly(claim.file);
    }
    return live;
  };

  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const [holder] = rivalsOf();
    if (holder) throw inUse(dataDir, holder);
    writeFileSync(file, JSON.stringify(owner), { flag: 'wx' });
    if (rivalsOf().length === 0) {
      const release = () => {
        process.off('exit', release);
        unlinkQuietly(file);
      };
      process.on('exit', release);
      return { lockDir, release };
    }
    unlinkQuietly(file);
  }
  const [holder] = rivalsOf();
  throw holder
    ? inUse(dataDir, holder)
    : new DbError(
        'DB_IN_USE',
        `The embedded database in ${shownPath(dataDir)} is being opened by other processes at the same moment. Start only one.`,
      );
};
