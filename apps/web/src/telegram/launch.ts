import { getLaunchData } from '@gridbot/contracts';
import { isApiError } from '../api/api-error';
import { callApi } from '../api/call-api';
import { earlyLaunch } from '../session/early-start';
import { readRawLaunchParams } from './launch-params';

export type TelegramUser = {
  id: number;
  first_name: string;
  last_name?: string;
  username?: string;
  language_code?: string;
};

/** What the app needs from Telegram's launch parameters. */
export type LaunchContext = {
  rawInitData: string;
  user: TelegramUser | null;
  platform: string;
  /** Theme parameters as Telegram sent them (snake_case keys, #rrggbb values). */
  themeParams: Record<string, string>;
  /** The `startapp` parameter of a deep link (docs/decisions.md#telegram-native-mini-app-issue-10), if any. */
  startParam: string | null;
  /** Launched from the server's demo launch data in an ordinary browser. */
  demo: boolean;
};

const parseJson = <T>(text: string | null, fallback: T): T => {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

/** Parses `tgWebAppData=…&tgWebAppPlatform=…` (pure, for tests too). */
export const parseLaunchParams = (raw: string, demo = false): LaunchContext | null => {
  const search = new URLSearchParams(raw);
  const rawInitData = search.get('tgWebAppData');
  if (!rawInitData) return null;
  const initData = new URLSearchParams(rawInitData);
  const user = parseJson<TelegramUser | null>(initData.get('user'), null);
  return {
    rawInitData,
    user: user && typeof user.id === 'number' ? user : null,
    platform: search.get('tgWebAppPlatform') ?? 'unknown',
    themeParams: parseJson<Record<string, string>>(search.get('tgWebAppThemeParams'), {}),
    startParam: search.get('tgWebAppStartParam') ?? initData.get('start_param'),
    demo,
  };
};

/** Launch parameters from the URL hash, or from where the SDK kept them across reloads. */
export const readLaunchContext = (demo = false): LaunchContext | null => {
  const raw = readRawLaunchParams();
  return raw ? parseLaunchParams(raw, demo) : null;
};

const DEMO_FLAG = 'gridbot/demo';

/**
 * docs/product.md#calls "Outside Telegram": without launch data the embedded demo's server hands out signed
 * launch data for the demo user; the app puts its launch parameters into the URL hash, so the SDK
 * starts exactly as inside Telegram. Without demo mode (404) there is no launch data at all.
 */
export const resolveLaunch = async (): Promise<LaunchContext | null> => {
  // The page's inline script reads the same parameters and, in the demo, fetches them first.
  const early = await earlyLaunch();
  const existing = readLaunchContext(sessionStorage.getItem(DEMO_FLAG) === '1');
  if (existing) return existing;
  // The script already asked the demo and there was nothing to have.
  if (early === null) return null;
  try {
    const demo = await callApi(getLaunchData);
    const hash = new URL(demo.url, location.href).hash;
    history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`);
    sessionStorage.setItem(DEMO_FLAG, '1');
    return readLaunchContext(true);
  } catch (error) {
    if (!isApiError(error) || error.status !== 404) console.warn('Demo launch data unavailable', error);
    return null;
  }
};
