// Builds the replay CLI (src/replay.ts) into dist/replay-cli/ with esbuild: workspace code is
// bundled, npm dependencies stay external (as scripts/build-app.mjs does for every app), and the
// engine is a separate chunk loaded after argument checks, so `--help` loads nothing but node.
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const app = fileURLToPath(new URL('..', import.meta.url));
export const REPLAY_OUTDIR = `${app}dist/replay-cli`;

const externalNpm = {
  name: 'external-npm',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@gridbot/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** Chunk names carry content hashes: start from an empty folder so old chunks do not pile up. */
export const buildReplay = () => {
  rmSync(REPLAY_OUTDIR, { recursive: true, force: true });
  return build({
    entryPoints: { replay: `${app}src/replay.ts` },
    outdir: REPLAY_OUTDIR,
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [externalNpm],
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
  });
};

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildReplay();
