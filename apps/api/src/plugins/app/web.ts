import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { getLaunchData } from '@gridbot/contracts';
import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/** docs/performance.md#web: Vite names everything under /assets/ by its content hash. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+(\.(br|gz))?$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * docs/grid.md#adding-a-coin: the coin icons the build copies to /coins/ keep their names across
 * releases (the screens ask for `/coins/<coin>.svg`), so they are not immutable, but an icon set
 * changes rarely: a month, then a revalidation in the background.
 */
const COIN_ICON = /[\\/]coins[\\/][a-z0-9]+\.svg(\.(br|gz))?$/;
const COIN_ICON_CACHE = 'public, max-age=2592000, stale-while-revalidate=604800';

/** Source maps are built hidden (for the operator's own symbolication) and never served. */
const isSourceMap = (pathname: string) => pathname.endsWith('.map');

const DEMO_LAUNCH_DATA_PRELOAD = `<${getLaunchData.path}>; rel=preload; as=fetch; crossorigin`;

type Manifest = Record<string, { file: string }>;

/** The built language chunks (en, ru, cn) by the Vite manifest; none when the build has no manifest. */
const languageChunks = (root: string): Record<string, string> => {
  try {
    const manifest = JSON.parse(readFileSync(join(root, '.vite/manifest.json'), 'utf8')) as Manifest;
    return Object.fromEntries(
      Object.entries(manifest).flatMap(([source, chunk]) => {
        const language = /src\/i18n\/locales\/(en|ru|cn)\.ts$/.exec(source)?.[1];
        return language ? [[language, `/${chunk.file}`]] : [];
      }),
    );
  } catch {
    return {};
  }
};

/**
 * What index.html loads before anything runs: the entry script, its module preloads and the
 * stylesheet, as `Link` values. Read from the built page once, at start.
 */
const pageSubresources = (root: string): string[] => {
  let html = '';
  try {
    html = readFileSync(join(root, 'index.html'), 'utf8');
  } catch {
    return [];
  }
  const links: string[] = [];
  for (const [tag = ''] of html.matchAll(/<(?:script|link)\b[^>]*>/g)) {
    const url = /\b(?:src|href)="(\/[^"]+)"/.exec(tag)?.[1];
    if (!url) continue;
    if (/^<script\b/.test(tag) && /\btype="module"/.test(tag))
      links.push(`<${url}>; rel=modulepreload; crossorigin`);
    else if (/\brel="modulepreload"/.test(tag)) links.push(`<${url}>; rel=modulepreload; crossorigin`);
    else if (/\brel="stylesheet"/.test(tag)) links.push(`<${url}>; rel=preload; as=style; crossorigin`);
  }
  return links;
};

/**
 * The app's language before sign-in is Telegram's language_code, else the browser's; the browser's
 * Accept-Language is the server's best guess of it (ru and zh have texts of their own, else en).
 */
const likelyLanguage = (acceptLanguage: string | undefined) => {
  const first = acceptLanguage?.split(',')[0]?.trim().toLowerCase() ?? '';
  if (first.startsWith('ru')) return 'ru';
  if (first.startsWith('zh')) return 'cn';
  return 'en';
};

const cacheControlOf = (path: string) => {
  if (HASHED_ASSET.test(path)) return IMMUTABLE;
  return COIN_ICON.test(path) ? COIN_ICON_CACHE : 'no-cache';
};

const setCacheHeaders = (reply: FastifyReply, path: string) => {
  reply.header('cache-control', cacheControlOf(path));
};

/**
 * Serves the built mini app on the API's port. Browser navigations (Accept: text/html) to any
 * app route get index.html; API calls send Accept: application/json (docs/product.md#calls), so a path both
 * use — `/partners/` — still reaches the API.
 *
 * docs/performance.md#web: the build writes a brotli and a gzip copy beside every asset; the one the
 * browser accepts is sent (`Vary: Accept-Encoding`). Hashed assets are cached for a year as
 * immutable; index.html and anything unhashed are revalidated on every load (`no-cache`).
 */
export const webPlugin = fp(
  async (app) => {
    const root = app.deps.webDist;
    if (!root) return;
    const languages = languageChunks(root);
    const subresources = pageSubresources(root);
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: setCacheHeaders,
      allowedPath: (pathname) => !isSourceMap(pathname),
    });
    app.addHook('onRequest', async (request, reply) => {
      if (request.method !== 'GET' || request.url.startsWith('/docs')) return;
      if (request.routeOptions.config.operational) return;
      const accept = request.headers.accept ?? '';
      if (!accept.includes('text/html')) return;
      if (/\.[a-z0-9]+$/i.test(request.url.split('?')[0] ?? '')) return;
      // docs/performance.md#web: what the entry asks for first leaves with the page instead — the
      // likely language's texts, and in the demo the launch data a plain browser does not have.
      const language = languages[likelyLanguage(request.headers['accept-language'])];
      const links = [
        ...(language ? [`<${language}>; rel=modulepreload`] : []),
        ...(app.deps.demoUser ? [DEMO_LAUNCH_DATA_PRELOAD] : []),
      ];
      // docs/performance.md#web: 103 Early Hints name everything the page loads first. A browser
      // acts on them before the page is even committed (a phone's tab takes a few hundred ms to set
      // up), so the code is already downloading when the page's own parser would have asked for it.
      reply.raw.writeEarlyHints({ link: [...links, ...subresources] });
      if (links.length > 0) reply.header('link', links.join(', '));
      return reply.sendFile('index.html');
    });
  },
  { name: 'web' },
);
