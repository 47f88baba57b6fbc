// Builds the replay CLI (src/replay.ts) into dist/replay-cli/ with esbuild: workspace code is
// bundled, npm dependencies stay external (scripts/build-app.mjs's options), and the
// engine is a separate chunk loaded after argument checks, so `--help` loads nothing but node.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { appBuildOptions } from '../../../scripts/build-app.mjs';

const app = fileURLToPath(new URL('..', import.meta.url));
export const REPLAY_OUTDIR = `${app}dist/replay-cli`;

/** Chunk names carry content hashes: start from an empty folder so old chunks do not pile up. */
export const buildReplay = () => {
  rmSync(REPLAY_OUTDIR, { recursive: true, force: true });
  return build({
    ...appBuildOptions,
    entryPoints: { replay: `${app}src/replay.ts` },
    outdir: REPLAY_OUTDIR,
    splitting: true,
  });
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildReplay();
