import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../../', import.meta.url));

// biome-ignore lint/suspicious/noExplicitAny: test lines are JSON checked field by field
export type Line = Record<string, any>;

/** A node script of this folder run as its own process, read as JSON lines. */
export type Child = {
  process: ChildProcess;
  /** The next line matching `test` (lines already read that did not match are dropped). */
  next(test?: (line: Line) => boolean): Promise<Line>;
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string>;
  /** Closes its stdin (the scripts take that as "stop"). */
  stop(): void;
};

export const startChild = (script: string, args: string[]): Child => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL(script, import.meta.url)), ...args],
    { cwd: root, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'test' } },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const lines: Line[] = [];
  const waiters: Array<() => void> = [];
  let ended = false;
  createInterface({ input: child.stdout! })
    .on('line', (text) => {
      lines.push(JSON.parse(text) as Line);
      for (const wake of waiters.splice(0)) wake();
    })
    .on('close', () => {
      ended = true;
      for (const wake of waiters.splice(0)) wake();
    });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const next = async (test: (line: Line) => boolean = () => true): Promise<Line> => {
    for (;;) {
      const line = lines.shift();
      if (line && test(line)) return line;
      if (line) continue;
      if (ended) throw new Error(`${script} ended without the expected line; stderr:\n${stderr}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { process: child, next, exited, stop: () => child.stdin?.end() };
};
