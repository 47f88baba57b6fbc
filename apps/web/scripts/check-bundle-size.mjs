// Bundle budgets (docs/performance.md, issue 3): the JavaScript loaded at start ≤ 170 KB gzip and each lazily
// loaded route chunk ≤ 60 KB gzip; a lazily loaded part of a screen (src/screens/shared/, e.g. the price
// chart and its library) ≤ 64 KB beyond what the first screen loaded. Reads the Vite manifest, prints every
// size, exits 1 when over.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const ENTRY_BUDGET = 170 * 1024;
const ROUTE_BUDGET = 60 * 1024;
/** The price chart's chunk is mostly lightweight-charts (~55 KB gzip): loaded only where a chart shows. */
const PART_BUDGET = 64 * 1024;
/** The tabs whose code index.html preloads with the first screen, beyond it (build/first-screen.ts). */
const PRELOADED_TABS_BUDGET = 12 * 1024;

const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const chunks = Object.values(manifest);
const byFile = new Map(chunks.map((chunk) => [chunk.file, chunk]));
const keyToChunk = new Map(Object.entries(manifest));
// Every lazily imported module and the chunk holding it, and the preloaded tabs (build/first-screen.ts):
// a screen grouped into the first screen's chunk or the preloaded tabs' has no manifest entry of its own.
const { lazyChunks, preloadedTabs: PRELOADED_TABS } = JSON.parse(
  readFileSync(join(dist, '.vite/start-chunks.json'), 'utf8'),
);
const lazyModules = lazyChunks.flatMap(({ file, modules }) =>
  modules.map((src) => ({ src, chunk: manifest[src] ?? byFile.get(file) })),
);
const chunkHolding = (src) => lazyModules.find((module) => module.src === src)?.chunk;

const gzipSize = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** A chunk and everything it imports statically (what the browser loads together). */
const staticClosure = (chunk, seen = new Set()) => {
  if (seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const key of chunk.imports ?? []) {
    const child = keyToChunk.get(key);
    if (child) staticClosure(child, seen);
  }
  return seen;
};

const entry = chunks.find((chunk) => chunk.isEntry);
if (!entry) {
  console.error('bundle budget: no entry chunk in the manifest');
  process.exit(1);
}

const entryFiles = [...staticClosure(entry)].filter((file) => file.endsWith('.js'));
const entryTotal = entryFiles.reduce((sum, file) => sum + gzipSize(file), 0);
let failed = false;

console.log('\nBundle sizes (gzip -9)');
console.log(`  entry JS (loaded at start): ${kb(entryTotal)} of ${kb(ENTRY_BUDGET)}`);
for (const file of entryFiles.sort()) console.log(`    ${file.padEnd(48)} ${kb(gzipSize(file)).padStart(9)}`);
if (entryTotal > ENTRY_BUDGET) {
  console.error(`  ✗ entry JS is over budget by ${kb(entryTotal - ENTRY_BUDGET)}`);
  failed = true;
}

const entrySet = new Set(entryFiles);
const isPart = (src) => /src\/screens\/shared\//.test(src);
const isRoute = (src) => /src\/(screens|layouts)\//.test(src) && !isPart(src);
const nameOf = (src) => src.replace(/^src\/(screens\/)?/, '').replace(/\.tsx?$/, '');
console.log(`  route chunks (own code + shared chunks not in the entry), budget ${kb(ROUTE_BUDGET)} each:`);
for (const { src, chunk } of lazyModules
  .filter((module) => isRoute(module.src))
  .sort((a, b) => a.src.localeCompare(b.src))) {
  const extra = [...staticClosure(chunk)].filter((file) => file.endsWith('.js') && !entrySet.has(file));
  const total = extra.reduce((sum, file) => sum + gzipSize(file), 0);
  const over = total > ROUTE_BUDGET;
  if (over) failed = true;
  console.log(`    ${over ? '✗' : ' '} ${nameOf(src).padEnd(46)} ${kb(total).padStart(9)}`);
}

// Parts of screens loaded when shown: what they add to the first screen (entry, user layout, panel).
const firstScreenFiles = new Set(entryFiles);
for (const src of ['src/layouts/user-layout.tsx', 'src/screens/panel/panel-screen.tsx']) {
  const chunk = chunkHolding(src);
  if (chunk) for (const file of staticClosure(chunk)) if (file.endsWith('.js')) firstScreenFiles.add(file);
}
console.log(`  lazily loaded parts of screens (beyond the first screen), budget ${kb(PART_BUDGET)} each:`);
for (const { src, chunk } of lazyModules
  .filter((module) => isPart(module.src))
  .sort((a, b) => a.src.localeCompare(b.src))) {
  const extra = [...staticClosure(chunk)].filter(
    (file) => file.endsWith('.js') && !firstScreenFiles.has(file),
  );
  const total = extra.reduce((sum, file) => sum + gzipSize(file), 0);
  const over = total > PART_BUDGET;
  if (over) failed = true;
  console.log(`    ${over ? '✗' : ' '} ${nameOf(src).padEnd(46)} ${kb(total).padStart(9)}`);
}

for (const { src, chunk } of lazyModules.filter((module) => !isRoute(module.src) && !isPart(module.src))) {
  const held = chunk.src === src ? '' : ` (in ${chunk.file.replace(/^assets\//, '')})`;
  console.log(`    (lazy) ${`${src}${held}`.padEnd(72)} ${kb(gzipSize(chunk.file)).padStart(9)}`);
}

// The tabs preloaded with the first screen (build/first-screen.ts): a tap on one as the tab bar shows
// opens it at once, but their bytes come before the first screen's.
const tabFiles = new Set();
for (const src of PRELOADED_TABS) {
  const chunk = chunkHolding(src);
  if (chunk)
    for (const file of staticClosure(chunk))
      if (file.endsWith('.js') && !firstScreenFiles.has(file)) tabFiles.add(file);
}
const tabsTotal = [...tabFiles].reduce((sum, file) => sum + gzipSize(file), 0);
const tabsOver = tabsTotal > PRELOADED_TABS_BUDGET;
if (tabsOver) failed = true;
console.log(
  `  ${tabsOver ? '✗' : ' '} tabs preloaded with the first screen (${PRELOADED_TABS.map(nameOf).join(', ')}), beyond it: ${kb(tabsTotal)} of ${kb(PRELOADED_TABS_BUDGET)}`,
);

// For the record: everything a signed-in user's first screen loads (entry, user layout, panel).
const firstScreenTotal = [...firstScreenFiles].reduce((sum, file) => sum + gzipSize(file), 0);
console.log(`  first screen (entry + user layout + panel, for information): ${kb(firstScreenTotal)}`);

if (byFile.size === 0 || failed) {
  console.error('\nbundle budget exceeded');
  process.exit(1);
}
console.log('  ✓ within budget\n');
