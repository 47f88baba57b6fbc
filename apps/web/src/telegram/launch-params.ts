/**
 * Reads Telegram's launch parameters without loading the SDK, so the entry can sign in at once
 * while the SDK chunk loads in parallel. Same sources and storage as the SDK (`@tma.js/bridge`):
 * the URL, the navigation entry, then `sessionStorage['tapps/launchParams']` (a JSON string). Once
 * found they are stored there, so the SDK still finds them after the router has dropped the hash.
 */
export const LAUNCH_PARAMS_STORAGE_KEY = 'tapps/launchParams';

const REQUIRED = ['tgWebAppData', 'tgWebAppPlatform', 'tgWebAppVersion'] as const;

/** `https://x/y?a=1#b=2` → `a=1&b=2`, as the SDK reads a URL. */
export const queryOfUrl = (url: string): string => url.replace(/^[^?#]*[?#]/, '').replace(/[?#]/g, '&');

export const isLaunchQuery = (query: string): boolean => {
  const params = new URLSearchParams(query);
  return REQUIRED.every((key) => Boolean(params.get(key)));
};

const fromStorage = (): string | undefined => {
  try {
    const stored = sessionStorage.getItem(LAUNCH_PARAMS_STORAGE_KEY);
    const value: unknown = stored ? JSON.parse(stored) : undefined;
    return typeof value === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
};

const fromNavigation = (): string | undefined => {
  const entry = performance.getEntriesByType('navigation')[0];
  return entry ? queryOfUrl(entry.name) : undefined;
};

export const readRawLaunchParams = (): string | null => {
  for (const source of [() => queryOfUrl(window.location.href), fromNavigation, fromStorage]) {
    const query = source();
    if (query && isLaunchQuery(query)) {
      try {
        sessionStorage.setItem(LAUNCH_PARAMS_STORAGE_KEY, JSON.stringify(query));
      } catch {
        // Storage may be unavailable (private mode); the URL still works for this page.
      }
      return query;
    }
  }
  return null;
};
