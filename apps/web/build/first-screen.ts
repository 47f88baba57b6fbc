import { dirname, relative, resolve } from 'node:path';
import type { IndexHtmlTransformContext, Plugin } from 'vite';

/** What a signed-in user sees first on `/`: the user layout and the panel (docs/performance.md#web). */
export const FIRST_SCREEN_ROOTS = [
  'src/layouts/user-layout.tsx',
  'src/screens/panel/panel-screen.tsx',
] as const;
/**
 * Loaded lazily at start as well: the initial load's calls. The Telegram SDK and its device setup
 * are not: they load after the first screen has rendered (src/main.tsx).
 */
const ALSO_AT_START = ['src/session/initial-load.ts'] as const;
/**
 * Tabs whose code comes with the first screen's, in one chunk of their own (`tabs`), so a tap on
 * one the moment the tab bar shows opens it at once (docs/performance.md#web). Light ones only:
 * scripts/check-bundle-size.mjs holds the chunk to its budget. The wallet's code is heavier; it is
 * fetched once the first screen is up (src/router/prefetch-tabs.ts).
 */
export const PRELOADED_TABS = [
  'src/screens/profile/profile-screen.tsx',
  'src/screens/portfolio/portfolio-screen.tsx',
  'src/screens/partners/partners-screen.tsx',
] as const;

type Bundle = NonNullable<IndexHtmlTransformContext['bundle']>;
type Chunk = Extract<Bundle[string], { type: 'chunk' }>;

/** The files a chunk needs before it runs: itself and its static imports, recursively. */
const chunkClosure = (bundle: Bundle, file: string, seen = new Set<string>()): Set<string> => {
  const chunk = bundle[file];
  if (seen.has(file) || chunk?.type !== 'chunk') return seen;
  seen.add(file);
  for (const imported of chunk.imports) chunkClosure(bundle, imported, seen);
  return seen;
};

/**
 * index.html asks for the first screen's code (and the preloaded tabs') together with the entry,
 * so they arrive while the entry runs and signs in, instead of after (docs/performance.md#web).
 */
const preloadFirstScreen = (html: string, bundle: Bundle, base: string): string => {
  const chunks = Object.values(bundle).filter((item): item is Chunk => item.type === 'chunk');
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) return html;
  const atStart = chunkClosure(bundle, entry.fileName);
  const wanted = new Set<string>();
  const roots = [...FIRST_SCREEN_ROOTS, ...ALSO_AT_START, ...PRELOADED_TABS];
  for (const chunk of chunks) {
    if (chunk.moduleIds.some((id) => roots.some((root) => id.endsWith(root))))
      for (const file of chunkClosure(bundle, chunk.fileName)) if (!atStart.has(file)) wanted.add(file);
  }
  const links = [...wanted]
    .sort()
    .map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`)
    .join('\n    ');
  return html.replace('</head>', `  ${links}\n  </head>`);
};

type ModuleInfo = {
  isEntry: boolean;
  importedIds: readonly string[];
  dynamicallyImportedIds: readonly string[];
  exports?: readonly string[];
  code: string | null;
};
type ModuleGraph = {
  getModuleIds: () => IterableIterator<string> | Iterable<string>;
  getModuleInfo: (id: string) => ModuleInfo | null;
};

/** The modules `barrel` re-exports whole (`export * from …`), like the contracts' index does every contract. */
const reExportedBy = (id: string, barrel: ModuleInfo): string[] => {
  const sources = [...(barrel.code ?? '').matchAll(/\bexport\s*\*\s*from\s*["']([^"']+)["']/g)].map(
    ([, source = '']) => resolve(dirname(id), source),
  );
  return barrel.importedIds.filter((module) => sources.includes(module.replace(/\.[cm]?[jt]sx?$/, '')));
};

/** The names a module imports (or re-exports) by name; null when it takes a whole namespace. */
const namesImported = (code: string): Set<string> | null => {
  if (/\bimport\s*\*\s*as\s/.test(code)) return null;
  const names = new Set<string>();
  for (const [, list = ''] of code.matchAll(/\b(?:import|export)\s*\{([^}]*)\}\s*from\s*["']/g))
    for (const item of list.split(',')) {
      const name = item
        .trim()
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name && !name.startsWith('type ')) names.add(name);
    }
  return names;
};

/**
 * The modules `id` needs. From a module that re-exports others whole, only those exporting a name
 * `id` imports from it (and the module itself only when `id` uses a name of its own): the contracts'
 * index re-exports every contract, and following all of them would put every contract in every
 * closure (the entry's too), leaving the ones screens share in tiny chunks of their own.
 */
const importsOf = (graph: ModuleGraph, id: string): string[] => {
  const info = graph.getModuleInfo(id);
  if (!info) return [];
  const names = namesImported(info.code ?? '');
  return info.importedIds.flatMap((dependency) => {
    const barrel = graph.getModuleInfo(dependency);
    const whole = barrel ? reExportedBy(dependency, barrel) : [];
    if (!barrel || whole.length === 0 || names === null) return [dependency];
    const exportsAny = (exported: readonly string[] = []) => exported.some((name) => names.has(name));
    const own = (barrel.exports ?? []).filter((name) => name !== '*');
    return [
      ...whole.filter((module) => exportsAny(graph.getModuleInfo(module)?.exports)),
      ...(exportsAny(own) ? [dependency] : []),
    ];
  });
};

/** Every module reachable from `roots` through static imports (barrels by name). */
const staticClosure = (graph: ModuleGraph, roots: readonly string[]): Set<string> => {
  const seen = new Set<string>();
  const queue = [...roots];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...importsOf(graph, id));
  }
  return seen;
};

/**
 * The chunk groups of the app's own code, read off the module graph once it is built:
 * `first-screen` is everything the user layout, the panel and the initial load import that the entry
 * does not (one chunk instead of ~25 small ones loaded in waves), `tabs` what the preloaded tabs
 * add to it. Returns the plugin that reads the graph and the group tests for `codeSplitting.groups`.
 */
export const firstScreenChunks = () => {
  const firstScreen = new Set<string>();
  const tabs = new Set<string>();
  const lazilyImported = new Set<string>();
  let base = '/';
  let root = '';
  const plugin: Plugin = {
    name: 'gridbot:first-screen',
    apply: 'build',
    configResolved(config) {
      base = config.base;
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html, context) => (context.bundle ? preloadFirstScreen(html, context.bundle, base) : html),
    },
    buildEnd() {
      const graph = this as unknown as ModuleGraph;
      const ids = [...graph.getModuleIds()];
      const rootsOf = (wanted: readonly string[]) => {
        const found = ids.filter((id) => wanted.some((root) => id.endsWith(root)));
        if (found.length !== wanted.length)
          this.error(`first screen: expected ${wanted.join(', ')} in the module graph`);
        return found;
      };
      const entry = staticClosure(
        graph,
        ids.filter((id) => graph.getModuleInfo(id)?.isEntry),
      );
      for (const id of staticClosure(graph, rootsOf([...FIRST_SCREEN_ROOTS, ...ALSO_AT_START])))
        if (!entry.has(id)) firstScreen.add(id);
      for (const id of staticClosure(graph, rootsOf(PRELOADED_TABS)))
        if (!entry.has(id) && !firstScreen.has(id)) tabs.add(id);
      for (const id of ids)
        for (const imported of graph.getModuleInfo(id)?.dynamicallyImportedIds ?? [])
          lazilyImported.add(imported);
    },
    // A screen inside a group chunk has no manifest entry of its own: scripts/check-bundle-size.mjs
    // reads which chunk holds each lazily imported module, and which tabs are preloaded, from here.
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((item): item is Chunk => item.type === 'chunk');
      const lazyChunks = chunks
        .map((chunk) => ({
          file: chunk.fileName,
          modules: chunk.moduleIds.filter((id) => lazilyImported.has(id)).map((id) => relative(root, id)),
        }))
        .filter((chunk) => chunk.modules.length > 0);
      this.emitFile({
        type: 'asset',
        fileName: '.vite/start-chunks.json',
        source: JSON.stringify({ lazyChunks, preloadedTabs: PRELOADED_TABS }, null, 1),
      });
    },
  };
  return {
    plugin,
    isFirstScreen: (id: string) => firstScreen.has(id),
    isPreloadedTab: (id: string) => tabs.has(id),
  };
};
