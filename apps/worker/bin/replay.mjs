#!/usr/bin/env node
// The replay CLI as compiled JavaScript (fast start). Builds it first when the build is missing
// (a fresh clone) or older than its sources, so `npm run replay` always runs the code in the tree.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const app = fileURLToPath(new URL('..', import.meta.url));
const root = fileURLToPath(new URL('../../..', import.meta.url));
const entry = `${app}dist/replay-cli/replay.js`;
const SOURCES = [
  `${app}src/replay.ts`,
  `${app}src/replay`,
  `${app}scripts/build-replay.mjs`,
  `${root}scripts/build-app.mjs`,
  `${root}packages/domain/src`,
  `${root}packages/contracts/src`,
];

/** Newest modification time under `path` (a file or a folder), in ms. */
const newest = (path) => {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(`${path}/${name}`));
  return latest;
};

const stale = () => {
  if (!existsSync(entry)) return true;
  const built = statSync(entry).mtimeMs;
  return SOURCES.some((source) => newest(source) > built);
};

if (stale()) {
  const { buildReplay } = await import('../scripts/build-replay.mjs');
  await buildReplay();
}
await import(entry);
