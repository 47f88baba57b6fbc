// `npm start`: build what is needed (turbo caches it), then run the standalone app (api + worker +
// sandbox on PGlite, demo seeded) in THIS process: one process, so a signal reaches it once and
// its one stop path runs (no parent forwarding signals to a child that also gets them).
// Extra environment variables pass through (PORT, HOST, DEMO=0, ...).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
if (!existsSync(`${root}node_modules/.bin/turbo`)) {
  console.error('Dependencies are missing: run `npm install` first.');
  process.exit(1);
}
const started = Date.now();
const build = spawnSync(
  'npx',
  [
    'turbo',
    'run',
    'build',
    '--filter=@gridbot/standalone',
    '--filter=@gridbot/web',
    '--output-logs=errors-only',
  ],
  { cwd: root, stdio: 'inherit' },
);
if (build.status !== 0) process.exit(build.status ?? 1);
console.log(`build ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

process.env.NODE_ENV ??= 'production';
process.env.DEMO ??= '1';
process.setSourceMapsEnabled(true);
process.chdir(root);
await import(`${root}apps/standalone/dist/main.js`);
