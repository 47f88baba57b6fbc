import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Text files: every one is sent compressed (docs/performance.md#web), down to the smallest chunk and
 * coin icon. Source maps are never served; there are no images or fonts that are not text.
 */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name.startsWith('.') ? [] : filesUnder(path);
    return [path];
  });

/**
 * docs/performance.md#web: writes `<file>.br` (quality 11) and `<file>.gz` (level 9) beside every
 * compressible output file once the bundle is written, so the API's static plugin and the proxy
 * send compressed bytes without compressing per request.
 */
export const precompress = (): Plugin => ({
  name: 'gridbot:precompress',
  apply: 'build',
  // Sequential: the files other plugins add in their writeBundle (the coin icons) are compressed too.
  writeBundle: {
    sequential: true,
    handler(options) {
      const dir = options.dir;
      if (!dir) return;
      for (const file of filesUnder(dir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const source = readFileSync(file);
        const brotli = brotliCompressSync(source, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
          },
        });
        // A copy that is not smaller is not written: the server then sends the file as it is.
        if (brotli.length < source.length) writeFileSync(`${file}.br`, brotli);
        const gzip = gzipSync(source, { level: 9 });
        if (gzip.length < source.length) writeFileSync(`${file}.gz`, gzip);
      }
    },
  },
});
