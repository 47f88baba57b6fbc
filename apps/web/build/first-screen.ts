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
 * index.html asks for the first screen's code together with the entry, so
 * they arrive while the entry runs and signs in, instead of after (docs/performance.md#web).
 */
const preloadFirstScreen = (html: string, bundle: Bundle, base: string): string => {
  const chunks = Object.values(bundle).filter((item): item is Chunk => item.type === 'chunk');
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) return html;
  const atStart = chunkClosure(bundle, entry.fileName);
  const wanted = new Set<string>();
  for (const chunk of chunks) {
    const id = chunk.facadeModuleId ?? '';
    if ([...FIRST_SCREEN_ROOTS, ...ALSO_AT_START].some((root) => id.endsWith(root)))
      for (const file of chunkClosure(bundle, chunk.fileName)) if (!atStart.has(file)) wanted.add(file);
  }
  const links = [...wanted]
    .sort()
    .map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`)
    .join('\n    ');
  return html.replace('</head>', `  ${links}\n  </head>`);
};

type ModuleGraph = {
  getModuleIds: () => IterableIterator<string> | Iterable<string>;
  getModuleInfo: (id: string) => { isEntry: boolean; importedIds: readonly string[] } | null;
};

/** Every module reachable from `roots` through static imports. */
const staticClosure = (graph: ModuleGraph, roots: readonly string[]): Set<string> => {
  const seen = new Set<string>();
  const queue = [...roots];
  for (let id = queue.pop(); id !== undefined; id = queue.pop()) {
    if (seen.has(id)) continue;
    seen.add(id);
    queue.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
};

/**
 * The chunk groups of the app's own code, read off the module graph once it is built:
 * `first-screen` is everything the user layout and the panel import that the entry does not (one
 * chunk instead of ~25 small ones loaded in waves). Returns the plugin that reads the graph and the
 * group tests for `codeSplitting.groups`.
 */
export const firstScreenChunks = () => {
  const firstScreen = new Set<string>();
  let base = '/';
  const plugin: Plugin = {
    name: 'gridbot:first-screen',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    transformIndexHtml: {
      order: 'post',
      handler: (html, context) => (context.bundle ? preloadFirstScreen(html, context.bundle, base) : html),
    },
    buildEnd() {
      const graph = this as unknown as ModuleGraph;
      const ids = [...graph.getModuleIds()];
      const entry = staticClosure(
        graph,
        ids.filter((id) => graph.getModuleInfo(id)?.isEntry),
      );
      const roots = ids.filter((id) => FIRST_SCREEN_ROOTS.some((root) => id.endsWith(root)));
      if (roots.length !== FIRST_SCREEN_ROOTS.length)
        this.error(`first screen: expected ${FIRST_SCREEN_ROOTS.join(', ')} in the module graph`);
      for (const id of staticClosure(graph, roots)) if (!entry.has(id)) firstScreen.add(id);
    },
  };
  return { plugin, isFirstScreen: (id: string) => firstScreen.has(id) };
};
