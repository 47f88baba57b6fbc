import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TELEGRAM_DARK_THEME } from '@gridbot/services';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** ENVIRONMENT.md: Debian's Chromium, driven by playwright-core, with these flags. */
export const launchBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });

export const VIEWPORT = { width: 390, height: 844 } as const;

export const SCREENSHOTS_DIR = fileURLToPath(new URL('../../../../artifacts/screenshots', import.meta.url));

/** What the stand-in client reports: its theme and insets (a phone without a notch by default). */
export type FakeClientOptions = {
  theme: Record<string, string>;
  safeArea: Insets;
  contentSafeArea: Insets;
};
type Insets = { top: number; bottom: number; left: number; right: number };

const NO_INSETS: Insets = { top: 0, bottom: 0, left: 0, right: 0 };

/**
 * A stand-in for the Telegram client: records every SDK call in `window.__tgCalls` (with whether
 * React had rendered by then) and answers the requests the SDK waits for through
 * `window.Telegram.WebView.receiveEvent`; a popup is answered with its first button, or with
 * `window.__tgPopupAnswer` when a test sets it; a file download is accepted (the file is the test's
 * to fetch from the recorded URL). Runs before the app, so nothing test-specific
 * ships in the bundle (ENVIRONMENT.md).
 */
const fakeTelegramClient = ({ theme, safeArea, contentSafeArea }: FakeClientOptions) => {
  type Win = Window & {
    __tgCalls: TelegramCall[];
    __tgPopupAnswer?: string;
    Telegram?: { WebView?: { receiveEvent?: (type: string, data: unknown) => void } };
    TelegramWebviewProxy?: { postEvent: (type: string, data?: string) => void };
  };
  const win = window as unknown as Win;
  win.__tgCalls = [];
  const reply = (type: string, data: unknown) =>
    setTimeout(() => win.Telegram?.WebView?.receiveEvent?.(type, data), 0);
  const viewport = () => ({
    height: window.innerHeight,
    width: window.innerWidth,
    is_expanded: true,
    is_state_stable: true,
  });
  win.TelegramWebviewProxy = {
    postEvent: (type, data) => {
      const params: unknown = data ? JSON.parse(data) : undefined;
      // index.html's #boot spinner is replaced by React's first render.
      win.__tgCalls.push({ type, params, rendered: !document.getElementById('boot') });
      if (type === 'web_app_request_viewport' || type === 'web_app_expand')
        reply('viewport_changed', viewport());
      if (type === 'web_app_request_theme') reply('theme_changed', { theme_params: theme });
      if (type === 'web_app_request_safe_area') reply('safe_area_changed', safeArea);
      if (type === 'web_app_request_content_safe_area') reply('content_safe_area_changed', contentSafeArea);
      if (type === 'web_app_request_fullscreen') reply('fullscreen_changed', { is_fullscreen: true });
      if (type === 'web_app_request_file_download')
        reply('file_download_requested', { status: 'downloading' });
      if (type === 'web_app_open_popup') {
        const buttons = (params as { buttons?: Array<{ id: string }> }).buttons ?? [];
        reply('popup_closed', { button_id: win.__tgPopupAnswer ?? buttons[0]?.id });
      }
    },
  };
};

export type TelegramCall = { type: string; params: unknown; rendered: boolean };

export type AppPage = {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  problems: string[];
  /** SDK method names the app posted to "Telegram". */
  telegramCalls: () => Promise<TelegramCall[]>;
  /** An event from "Telegram" (a tap on its MainButton, BackButton …). */
  telegramEvent: (type: string, data?: unknown) => Promise<void>;
  close: () => Promise<void>;
};

const contexts = new WeakMap<Browser, Map<string, Promise<BrowserContext>>>();

/**
 * One browser context per locale, kept for the whole test file so the app's chunks come from the
 * HTTP cache after the first page (as on a phone): the API's global per-IP limit (300 requests a
 * minute) would otherwise be reached by the static files of a few fresh page loads.
 */
const contextFor = (browser: Browser, locale: string, timezoneId?: string) => {
  let byLocale = contexts.get(browser);
  if (!byLocale) {
    byLocale = new Map();
    contexts.set(browser, byLocale);
  }
  const key = `${locale} ${timezoneId ?? ''}`;
  let context = byLocale.get(key);
  if (!context) {
    context = browser.newContext({
      viewport: VIEWPORT,
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale,
      ...(timezoneId ? { timezoneId } : {}),
    });
    byLocale.set(key, context);
  }
  return context;
};

/**
 * A fresh tab in Chromium at 390×844 as a phone, without cookies. `telegram: false` leaves out the
 * Telegram stand-in (an ordinary browser, as for the demo); `theme` is the theme it answers with
 * (dark by default).
 */
/**
 * The panel and the wallet answer one call per 2 s per user (docs/product.md#limits), and a page asks
 * both as soon as it has signed in (its first load leaves from index.html). Tests open page after
 * page for the same user: a new page waits until the window of the last such call in this process
 * has passed, so the server never answers it 429 for what another page did.
 */
const PER_USER_LIMITED = new Set(['/home/', '/wallet']);
let lastLimitedCall = 0;

export const openAppPage = async (
  browser: Browser,
  options: {
    locale?: string;
    /** The phone's time zone (IANA, e.g. `America/Los_Angeles`; default the host's). */
    timezoneId?: string;
    telegram?: boolean;
    /** Telegram theme parameters (the demo's dark theme by default). */
    theme?: Record<string, string>;
    client?: Partial<FakeClientOptions>;
  } = {},
): Promise<AppPage> => {
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastLimitedCall + 2100 - Date.now())));
  const context = await contextFor(browser, options.locale ?? 'en-US', options.timezoneId);
  await context.clearCookies();
  const page = await context.newPage();
  if (options.telegram !== false) {
    await page.addInitScript(fakeTelegramClient, {
      theme: options.theme ?? TELEGRAM_DARK_THEME,
      safeArea: NO_INSETS,
      contentSafeArea: NO_INSETS,
      ...options.client,
    });
  }
  const problems: string[] = [];
  page.on('request', (request) => {
    if (PER_USER_LIMITED.has(new URL(request.url()).pathname)) lastLimitedCall = Date.now();
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (response.status() === 429) problems.push(`429: ${path}`);
    // A failed call answers the API's JSON error body, which the screen shows in place; anything
    // else failing (a missing asset, a route the server does not know) is a fault.
    else if (
      response.status() >= 400 &&
      !(response.headers()['content-type'] ?? '').includes('application/json')
    ) {
      problems.push(`${response.status()}: ${path}`);
    }
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // Chromium logs every failed call as a failed load; the response listener above judges them.
    if (/^Failed to load resource: the server responded with a status of \d+/.test(message.text())) return;
    problems.push(`console: ${message.text()}`);
  });
  return {
    context,
    page,
    problems,
    telegramCalls: () =>
      page.evaluate(() => (window as unknown as { __tgCalls: TelegramCall[] }).__tgCalls ?? []),
    telegramEvent: async (type, data) => {
      // The app loads Telegram's SDK lazily, and the SDK installs the receiver: on a busy machine a
      // test's tap can come before it. A real client sends nothing before the app has set the
      // button up, so wait for the receiver, and for a main-button tap until the button is shown.
      await page.waitForFunction(
        (eventType) => {
          const win = window as unknown as {
            Telegram?: { WebView?: { receiveEvent?: unknown } };
            __tgCalls?: TelegramCall[];
          };
          if (typeof win.Telegram?.WebView?.receiveEvent !== 'function') return false;
          if (eventType !== 'main_button_pressed') return true;
          const setups = (win.__tgCalls ?? []).filter((call) => call.type === 'web_app_setup_main_button');
          return (setups.at(-1)?.params as { is_visible?: boolean } | undefined)?.is_visible === true;
        },
        type,
        { polling: 50 },
      );
      await page.evaluate(
        ([eventType, eventData]) => {
          const telegram = (
            window as unknown as { Telegram: { WebView: { receiveEvent: (t: string, d: unknown) => void } } }
          ).Telegram;
          telegram.WebView.receiveEvent(eventType as string, eventData);
        },
        [type, data] as const,
      );
    },
    close: () => page.close(),
  };
};

/** A screen's address; screens that need a coin get one in the query string. */
export const screenUrlOf = (path: string) =>
  path === '/portfolio/show' || path === '/portfolio/edit' ? `${path}?coin=BTC` : path;

/** Client-side navigation, as a tap on an in-app link does (the router follows history.pushState). */
export const navigateInApp = async (page: Page, path: string) => {
  await page.evaluate((target) => window.history.pushState(window.history.state, '', target), path);
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
};

const BUSY = '.loader, .skeleton, [aria-busy="true"], #boot';

const notBusy = async (page: Page) => {
  try {
    await page.waitForFunction((selector) => !document.querySelector(selector), BUSY, { timeout: 20_000 });
  } catch (error) {
    const still = await page.evaluate(
      (selector) => document.querySelector(selector)?.outerHTML.slice(0, 300),
      BUSY,
    );
    throw new Error(`${page.url()} still busy: ${still}`, { cause: error });
  }
};

/**
 * Waits until no loader or skeleton is on screen, the page has rendered what it renders after its
 * first paint (the first screen's sections below the fold, ui/after-first-paint.tsx) and animations
 * have finished.
 */
export const settle = async (page: Page) => {
  await notBusy(page);
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        requestAnimationFrame(() => requestIdleCallback(() => resolve(), { timeout: 2000 }));
      }),
  );
  await notBusy(page);
  await page.evaluate(() =>
    Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))),
  );
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
};

export const screenshot = async (page: Page, language: string, name: string) => {
  const dir = `${SCREENSHOTS_DIR}/${language}`;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: false });
};
