import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The running launcher's addresses, in its data folder (beside the PGlite folder, under its lock:
 * one launcher per folder), for tools that talk to this demo and no other: `npm run demo:send`
 * (apps/sandbox/bin/demo-send.mjs) reads it. Written once everything listens, removed at stop; a
 * file left by a killed process names a pid that no longer runs.
 */
export const RUN_FILE = 'demo-run.json';

export type RunFile = {
  pid: number;
  url: string;
  sandboxUrl: string;
  tronUrl: string;
  startedAt: string;
};

/** Writes the run file into `dataDir`; the returned function removes it. */
export const writeRunFile = (dataDir: string, run: RunFile): (() => void) => {
  const path = join(dataDir, RUN_FILE);
  writeFileSync(path, `${JSON.stringify(run, null, 2)}\n`);
  return () => rmSync(path, { force: true });
};
