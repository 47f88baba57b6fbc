import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * One app of the fleet as its own OS process (`node apps/<app>/dist/main.js`), started, watched
 * and stopped the way a supervisor (compose, systemd) would: its output goes to
 * `<dir>/logs/<name>.log` (and to the console with a name prefix when echoing), it is ready when
 * its readiness probe answers, and it can be killed (any signal, kill -9 included) and started
 * again with the same environment.
 */
export type ReadyProbe =
  /** Ready when this URL answers 200. */
  | { url: string }
  /** Ready when the process prints a line matching this. */
  | { line: RegExp };

export type FleetProcessSpec = {
  name: string;
  /** Script path relative to the repository root. */
  script: string;
  env: Record<string, string>;
  ready: ReadyProbe;
};

export type FleetProcess = {
  name: string;
  spec: FleetProcessSpec;
  /** The running child (replaced by start()). */
  child: () => ChildProcess;
  /** Resolves with the exit code (or the signal's name) of the current child. */
  exited: () => Promise<number | string>;
  start: (timeoutMs?: number) => Promise<void>;
  /** Sends a signal without waiting (kill -9: `signal('SIGKILL')`). */
  signal: (signal: NodeJS.Signals) => void;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop: (graceMs?: number) => Promise<number | string>;
  running: () => boolean;
};

export type FleetProcessOptions = {
  root: string;
  logDir: string;
  echo: boolean;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const urlAnswers = async (url: string): Promise<boolean> => {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
};

export const createFleetProcess = (spec: FleetProcessSpec, options: FleetProcessOptions): FleetProcess => {
  let child: ChildProcess | undefined;
  let exit: Promise<number | string> = Promise.resolve('not started');
  let alive = false;
  let log: WriteStream | undefined;
  const lineWaiters = new Set<(line: string) => void>();

  const pipe = (stream: NodeJS.ReadableStream | null) => {
    if (!stream) return;
    createInterface({ input: stream }).on('line', (line) => {
      log?.write(`${line}\n`);
      if (options.echo) process.stdout.write(`[${spec.name}] ${line}\n`);
      for (const waiter of lineWaiters) waiter(line);
    });
  };

  const waitReady = async (current: ChildProcess, timeoutMs: number): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    const failure = () =>
      new Error(
        `${spec.name} did not become ready in ${timeoutMs} ms (see ${join(options.logDir, `${spec.name}.log`)})`,
      );
    if ('line' in spec.ready) {
      const pattern = spec.ready.line;
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => done(failure()), timeoutMs);
        const onExit = () => done(new Error(`${spec.name} exited before it was ready`));
        const waiter = (line: string) => {
          if (pattern.test(line)) done();
        };
        const done = (error?: Error) => {
          clearTimeout(timer);
          lineWaiters.delete(waiter);
          current.off('exit', onExit);
          if (error) reject(error);
          else resolve();
        };
        lineWaiters.add(waiter);
        current.once('exit', onExit);
      });
      return;
    }
    while (Date.now() < deadline) {
      if (!alive) throw new Error(`${spec.name} exited before it was ready`);
      if (await urlAnswers(spec.ready.url)) return;
      await sleep(200);
    }
    throw failure();
  };

  const start = async (timeoutMs = 180_000): Promise<void> => {
    if (alive) throw new Error(`${spec.name} is already running`);
    log ??= createWriteStream(join(options.logDir, `${spec.name}.log`), { flags: 'a' });
    log.write(`---- start ${new Date().toISOString()}\n`);
    // FLEET_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles every app (docs/fleet.md).
    const nodeArgs = process.env.FLEET_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
    const current = spawn(process.execPath, [...nodeArgs, spec.script], {
      cwd: options.root,
      env: { PATH: process.env.PATH ?? '', ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = current;
    alive = true;
    exit = new Promise((resolve) => {
      current.once('exit', (code, signal) => {
        alive = false;
        log?.write(`---- exit ${code ?? signal} ${new Date().toISOString()}\n`);
        resolve(code ?? signal ?? 'unknown');
      });
    });
    pipe(current.stdout);
    pipe(current.stderr);
    await waitReady(current, timeoutMs);
  };

  const stop = async (graceMs = 25_000): Promise<number | string> => {
    if (!child || !alive) return exit;
    const current = child;
    current.kill('SIGTERM');
    const timer = setTimeout(() => current.kill('SIGKILL'), graceMs);
    const code = await exit;
    clearTimeout(timer);
    return code;
  };

  return {
    name: spec.name,
    spec,
    child: () => {
      if (!child) throw new Error(`${spec.name} was never started`);
      return child;
    },
    exited: () => exit,
    start,
    signal: (signal) => child?.kill(signal),
    stop,
    running: () => alive,
  };
};
