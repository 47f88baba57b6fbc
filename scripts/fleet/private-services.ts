import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';

/**
 * A PostgreSQL server and a Redis server of the fleet's own (docs/fleet.md#fault-tests), so a fault
 * test can restart, kill or flush them without touching the machine's shared ones: PostgreSQL from
 * the installed binaries on a fresh cluster in a temporary folder (as the `postgres` user when run
 * as root, since PostgreSQL refuses root), Redis from `redis-server` without persistence.
 */
export type PrivateService = {
  url: string;
  port: number;
  /** Stops it (SIGTERM: PostgreSQL's fast shutdown, Redis's shutdown) and waits. */
  stop: () => Promise<void>;
  /** Starts it again on the same port and data. */
  start: () => Promise<void>;
  /** SIGKILL without a shutdown (a crash). */
  kill: () => Promise<void>;
  remove: () => Promise<void>;
};

const waitForPort = async (port: number, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

const postgresBin = (): string => {
  const versions = readdirSync('/usr/lib/postgresql').sort().reverse();
  for (const version of versions) {
    const bin = `/usr/lib/postgresql/${version}/bin`;
    if (existsSync(join(bin, 'initdb'))) return bin;
  }
  throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
};

const isRoot = () => process.getuid?.() === 0;

/** Runs a PostgreSQL binary as `postgres` when we are root (PostgreSQL refuses to run as root). */
const asPostgres = (command: string, args: string[]): [string, string[]] =>
  isRoot() ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];

export const startPrivatePostgres = async (dir: string, port: number): Promise<PrivateService> => {
  const bin = postgresBin();
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  const [initCommand, initArgs] = asPostgres(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  execFileSync(initCommand, initArgs, { stdio: 'ignore' });
  let child: ChildProcess | undefined;
  const start = async () => {
    const [command, args] = asPostgres(join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'max_connections=200',
    ]);
    child = spawn(command, args, { stdio: 'ignore' });
    await waitForPort(port, 30_000);
  };
  const signal = async (name: NodeJS.Signals) => {
    if (!child) return;
    // runuser forwards SIGTERM; a SIGKILL must reach postgres itself.
    const target = name === 'SIGKILL' && isRoot() ? pgPid(data) : undefined;
    if (target) process.kill(target, 'SIGKILL');
    else child.kill(name);
    await exited(child);
    child = undefined;
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    remove: async () => {
      await signal('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** The postmaster's pid from postmaster.pid (its first line). */
const pgPid = (data: string): number | undefined => {
  try {
    const text = execFileSync('head', ['-n', '1', join(data, 'postmaster.pid')])
      .toString()
      .trim();
    const pid = Number(text);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
};

/** `password`: the server asks for it (requirepass), and the URL carries it. */
export const startPrivateRedis = async (
  port: number,
  options: { password?: string } = {},
): Promise<PrivateService> => {
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
        ...(options.password ? ['--requirepass', options.password] : []),
      ],
      { stdio: 'ignore' },
    );
    await waitForPort(port, 15_000);
  };
  const signal = async (name: NodeJS.Signals) => {
    if (!child) return;
    child.kill(name);
    await exited(child);
    child = undefined;
  };
  await start();
  return {
    url: `redis://${options.password ? `:${encodeURIComponent(options.password)}@` : ''}127.0.0.1:${port}/0`,
    port,
    start,
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
    remove: () => signal('SIGTERM'),
  };
};
