import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/** Where the icons are served from: `/coins/<coin lower-case>.svg` (docs/grid.md#adding-a-coin). */
export const COIN_ICON_DIR = 'coins';

/** Coin symbols are letters and digits (the contract's ZCoinName); other file names are skipped. */
const ICON_FILE = /^[a-z0-9]{1,15}\.svg$/;

/** The colour SVGs of the CC0 `cryptocurrency-icons` package, one per lower-cased symbol. */
const iconSource = (): string => {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('cryptocurrency-icons/package.json')), 'svg', 'color');
};

const iconFiles = (dir: string): string[] => readdirSync(dir).filter((name) => ICON_FILE.test(name));

/**
 * docs/grid.md#adding-a-coin: coin icons come from the app's own origin, never from a third party.
 * The build copies the package's colour SVGs to `dist/coins/<coin>.svg` (static files, not JS: the
 * bundle budget is untouched); the dev server answers the same paths from node_modules. No icon is
 * committed to the repository.
 */
export const coinIcons = (): Plugin => {
  const dir = iconSource();
  return {
    name: 'gridbot:coin-icons',
    // Copied once the bundle is written, before precompress (sequential, listed after this plugin)
    // writes their .br/.gz copies; as files rather than emitted assets the build log stays short.
    writeBundle: {
      sequential: true,
      handler(options) {
        if (!options.dir) return;
        const target = join(options.dir, COIN_ICON_DIR);
        mkdirSync(target, { recursive: true });
        for (const name of iconFiles(dir)) copyFileSync(join(dir, name), join(target, name));
      },
    },
    configureServer(server) {
      const available = new Set(iconFiles(dir));
      server.middlewares.use(`/${COIN_ICON_DIR}`, (request, response, next) => {
        const name = (request.url ?? '').split('?')[0]?.replace(/^\//, '') ?? '';
        if (!available.has(name)) return next();
        response.setHeader('content-type', 'image/svg+xml');
        response.end(readFileSync(join(dir, name)));
      });
    },
  };
};
