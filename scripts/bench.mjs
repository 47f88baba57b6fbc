// `npm run bench`: runs every benchmark in scripts/bench/ (each prints its figures and the
// docs/performance.md target). Pass names to run some: `npm run bench -- replay`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const wanted = process.argv.slice(2);
const benches = readdirSync(`${root}scripts/bench`)
  .filter((file) => file.endsWith('.ts'))
  .filter((file) => wanted.length === 0 || wanted.some((name) => file.startsWith(name)));
let failed = 0;
for (const file of benches) {
  process.stdout.write(`\n━━ bench ${file}\n`);
  const result = spawnSync('npx', ['tsx', `scripts/bench/${file}`], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
