// `npm start`: build what is needed (turbo caches it), then run everything in one process on
// PGlite with the demo seeded. Extra environment variables pass through (PORT, DEMO=0, ...).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
if (!existsSync(`${root}node_modules/.bin/turbo`)) {
  console.error('Dependencies are missing: run `npm install` first.');
  process.exit(1);
}
const started = Date.now();
const build = spawnSync(
  'npx',
  ['turbo', 'run', 'build', '--filter=@gridbot/api', '--filter=@gridbot/web', '--output-logs=errors-only'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (build.status !== 0) process.exit(build.status ?? 1);
console.log(`build ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const child = spawn(process.execPath, ['--enable-source-maps', 'apps/api/dist/embedded.js'], {
  cwd: root,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', DEMO: '1', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
