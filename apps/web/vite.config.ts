import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { coinIcons } from './build/coin-icons';
import { earlyRequests } from './build/early-requests';
import { firstScreenChunks } from './build/first-screen';
import { precompress } from './build/precompress';
import { stripSchemaDescriptions } from './build/strip-descriptions';

/**
 * Vendor groups loaded with the entry (each cached on its own across releases). Route screens are
 * lazy chunks of their own; rolldown's `codeSplitting.groups` is Vite 8's replacement for
 * Rollup's `manualChunks`.
 */
const vendorGroups: ReadonlyArray<{ name: string; test: RegExp }> = [
  { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
  { name: 'i18n', test: /node_modules[\\/](i18next|react-i18next)[\\/]/ },
  {
    name: 'telegram',
    test: /node_modules[\\/](@tma\.js|fp-ts|valibot|better-promises|error-kid)[\\/]/,
  },
  { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
  // The router and the query cache with their stores: one chunk instead of six pieces of one to 20 KB.
  { name: 'tanstack', test: /node_modules[\\/](@tanstack|use-sync-external-store)[\\/]/ },
];

// The contract modules only build zod schemas: a module nobody imports can be dropped, so each
// screen's chunk carries just the contracts it calls.
const contractsWithoutSideEffects = (id: string) =>
  /packages[\\/]contracts[\\/]src[\\/]/.test(id) ? false : undefined;

const firstScreen = firstScreenChunks();

export default defineConfig({
  plugins: [
    react(),
    stripSchemaDescriptions(),
    earlyRequests(),
    firstScreen.plugin,
    coinIcons(),
    precompress(),
  ],
  base: '/',
  build: {
    target: 'es2022',
    // docs/performance.md#web: maps are written for the operator but not referenced, and never served.
    sourcemap: 'hidden',
    reportCompressedSize: false,
    manifest: true,
    rolldownOptions: {
      treeshake: { moduleSideEffects: contractsWithoutSideEffects },
      output: {
        codeSplitting: {
          groups: [
            ...vendorGroups.map((group, index) => ({ ...group, priority: vendorGroups.length - index + 1 })),
            // The first screen's own code in one chunk (docs/performance.md#web), not its dependencies
            // that the entry already brings.
            {
              name: 'first-screen',
              test: firstScreen.isFirstScreen,
              priority: 1,
              includeDependenciesRecursively: false,
            },
            {
              name: 'tabs',
              test: firstScreen.isPreloadedTab,
              priority: 1,
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
  server: {
    // `npm run dev` next to a running API (`npm start` serves it on :3000).
    proxy: Object.fromEntries(
      ['/auth', '/home', '/portfolio', '/wallet', '/profile', '/partners', '/demo'].map((path) => [
        path,
        {
          target: process.env.VITE_API_PROXY ?? 'http://localhost:3000',
          bypass: (request: { headers: { accept?: string } }) =>
            request.headers.accept?.includes('text/html') ? '/index.html' : undefined,
        },
      ]),
    ),
  },
});
