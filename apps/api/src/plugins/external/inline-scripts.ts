import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const INLINE_SCRIPT = /<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The CSP sources (`'sha256-…'`) of the inline scripts of an HTML page, hashed over their exact
 * text as the browser does: the page's own scripts run, an injected one does not.
 */
export const inlineScriptHashes = (html: string): string[] =>
  [...html.matchAll(INLINE_SCRIPT)]
    .map((match) => match[1] ?? '')
    .filter((body) => body.trim() !== '')
    .map((body) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);

/** The hashes of the built web app's index.html, read once at start-up (none without a build). */
export const readInlineScriptHashes = (webDist: string | undefined): string[] => {
  const index = webDist ? join(webDist, 'index.html') : undefined;
  return index && existsSync(index) ? inlineScriptHashes(readFileSync(index, 'utf8')) : [];
};
