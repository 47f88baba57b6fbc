import type { Plugin } from 'vite';
import { PAGE_UID_IN_URL, pageRequests } from '../src/session/initial-calls';

/** Where index.html's inline script takes the initial load's requests. */
const SLOT = '/* the initial load, written at build time */ []';

/**
 * Writes the initial load's requests, built from the contracts, into index.html's inline script,
 * which sends them the moment sign-in answers (docs/performance.md#web). The API allows that
 * script by the hash of what is written here (docs/security.md#content-security-policy).
 */
export const earlyRequests = (): Plugin => ({
  name: 'gridbot:early-requests',
  transformIndexHtml: {
    order: 'pre',
    handler: (html) => {
      if (!html.includes(SLOT))
        throw new Error(`index.html: the slot for the initial load is missing (${SLOT})`);
      return html.replace(SLOT, JSON.stringify({ uidInUrl: PAGE_UID_IN_URL, requests: pageRequests() }));
    },
  },
});
