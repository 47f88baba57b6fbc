// Bundles an app's entry points with esbuild: our workspace packages (TypeScript sources) are
// bundled in, every npm dependency stays external and is loaded from node_modules at run time.
// `node scripts/build-app.mjs <entry.ts>...` from an app's folder; other build scripts reuse
// `appBuildOptions` (apps/worker/scripts/build-replay.mjs).
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const externalNpm = {
  name: 'external-npm',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@gridbot/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

/** The esbuild options every app build shares (Node ESM, workspace code bundled, npm external). */
export const appBuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [externalNpm],
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const entries = process.argv.slice(2);
  if (entries.length === 0) {
    console.error('usage: node scripts/build-app.mjs <entry.ts>...');
    process.exit(2);
  }
  await build({ ...appBuildOptions, entryPoints: entries, outdir: 'dist' });
}
