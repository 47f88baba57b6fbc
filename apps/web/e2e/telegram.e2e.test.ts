import type { User } from '@gridbot/db';
import { TELEGRAM_DARK_THEME } from '@gridbot/services';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/locales/en';
import { ROUTE_LIST } from '../src/router/route-table';
import {
  type AppPage,
  type FakeClientOptions,
  launchBrowser,
  navigateInApp,
  openAppPage,
  screenshot,
  settle,
} from './support/browser';
import { serveFixtures } from './support/fixtures';
import { type Stack, startStack } from './support/stack';

/** Telegram's light theme as a phone client sends it. */
const LIGHT_THEME = {
  bg_color: '#ffffff',
  text_color: '#000000',
  hint_color: '#999999',
  link_color: '#2481cc',
  button_color: '#2481cc',
  button_text_color: '#ffffff',
  secondary_bg_color: '#efeff3',
  header_bg_color: '#ffffff',
  accent_text_color: '#2481cc',
  section_bg_color: '#ffffff',
  section_header_text_color: '#6d6d72',
  subtitle_text_color: '#999999',
  destructive_text_color: '#ff3b30',
  section_separator_color: '#c8c7cc',
  bottom_bar_bg_color: '#ffffff',
};
const THEMES = { light: LIGHT_THEME, dark: TELEGRAM_DARK_THEME } as const;
type ThemeName = keyof typeof THEMES;

const rgbOf = (hex: string) => {
  const value = Number.parseInt(hex.slice(1), 16);
  return [value >> 16, (value >> 8) & 255, value & 255] as const;
};
const cssRgb = (hex: string) => `rgb(${rgbOf(hex).join(', ')})`;

let stack: Stack;
let browser: Browser;
let users = 0;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

// A new user per test: the server limits the panel and the wallet to 1 call per 2 s per user.
/** A username as a sender sees it (docs/wallet.md#internal-transfer): `lena_tg_3` → `le…_3`. */
const masked = (username: string) => `${username.slice(0, 2)}…${username.slice(-2)}`;

const newUser = (): Promise<User> => {
  users += 1;
  return stack.createUser({ username: `lena_tg_${users}`, firstName: 'Lena' });
};

type LaunchSetup = {
  theme?: ThemeName;
  client?: Partial<FakeClientOptions>;
  startParam?: string;
  fixtures?: boolean;
  /** false: an ordinary browser holding the launch parameters, no Telegram client around it. */
  telegram?: boolean;
};

const signedIn = async (setup: LaunchSetup = {}) => {
  const theme = THEMES[setup.theme ?? 'dark'];
  const app = await openAppPage(browser, {
    telegram: setup.telegram ?? true,
    client: { theme, ...setup.client },
  });
  if (setup.fixtures) await serveFixtures(app.page);
  const launch = { theme, ...(setup.startParam ? { startParam: setup.startParam } : {}) };
  await app.page.goto(stack.launchUrlFor(await newUser(), launch));
  await app.page.locator('nav.tabbar').waitFor();
  // Inside Telegram the SDK loads once the first screen has rendered (docs/performance.md#web):
  // its device setup ends with ready().
  if (setup.telegram ?? true)
    await expect
      .poll(async () => (await callsOf(app, 'web_app_ready')).length, { timeout: 10_000 })
      .toBeGreaterThan(0);
  return app;
};

const callsOf = async (app: AppPage, type: string) =>
  (await app.telegramCalls()).filter((call) => call.type === type);

const lastParams = async (app: AppPage, type: string) => (await callsOf(app, type)).at(-1)?.params;

/** Holds the requests matching `pattern` until `open()`: a slow network, frozen at a chosen moment. */
const holdRequests = async (page: Page, pattern: string) => {
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  await page.route(pattern, async (route) => {
    await gate;
    await route.continue();
  });
  return open;
};

/** Every JS chunk held: what a user on a slow network sees before the app runs. */
const holdChunks = (page: Page) => holdRequests(page, '**/assets/*.js');

/** The colour of one screenshot pixel, decoded by the page itself (no image library needed). */
const pixelAt = async (page: Page, x: number, y: number) => {
  const png = (await page.screenshot()).toString('base64');
  return page.evaluate(
    async ([data, px, py]) => {
      const bytes = Uint8Array.from(atob(data as string), (char) => char.charCodeAt(0));
      const image = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(image.width, image.height);
      const context = canvas.getContext('2d');
      context?.drawImage(image, 0, 0);
      return [...(context?.getImageData(px as number, py as number, 1, 1).data ?? [])].slice(0, 3);
    },
    [png, x, y] as const,
  );
};

const pageState = (page: Page) =>
  page.evaluate(() => ({
    background: getComputedStyle(document.body).backgroundColor,
    scheme: getComputedStyle(document.documentElement).colorScheme,
    booting: Boolean(document.getElementById('boot')),
    painted: performance.getEntriesByType('paint').some((entry) => entry.name === 'first-paint'),
  }));

describe('theme before the first paint', () => {
  it.each(['light', 'dark'] as const)(
    'paints the %s theme before any chunk has loaded, and again after a reload',
    async (name) => {
      const theme = THEMES[name];
      const app = await openAppPage(browser, { client: { theme } });
      const open = await holdChunks(app.page);
      await app.page.goto(stack.launchUrlFor(await newUser(), { theme }), { waitUntil: 'commit' });
      await app.page.waitForFunction(() =>
        performance.getEntriesByType('paint').some((entry) => entry.name === 'first-paint'),
      );
      // The first paint happened with every chunk still held: only index.html had run.
      expect(await pageState(app.page)).toEqual({
        background: cssRgb(theme.secondary_bg_color),
        scheme: name,
        booting: true,
        painted: true,
      });
      expect(await pixelAt(app.page, 5, 5)).toEqual([...rgbOf(theme.secondary_bg_color)]);
      open();
      await app.page.locator('nav.tabbar').waitFor();
      await settle(app.page);

      // A reload without the launch parameters in the URL: the kept ones give the same first paint.
      await app.page.unrouteAll();
      const reopen = await holdChunks(app.page);
      await app.page.goto(`${stack.baseUrl}/wallet`, { waitUntil: 'commit' });
      await app.page.waitForFunction(() =>
        performance.getEntriesByType('paint').some((entry) => entry.name === 'first-paint'),
      );
      expect((await pageState(app.page)).background).toBe(cssRgb(theme.secondary_bg_color));
      reopen();
      await app.page.locator('nav.tabbar').waitFor();
      // The inline script ran under the API's CSP (a refusal would be a console error). The
      // reload comes within the panel's 2 s limit of the first load: its refusal is expected.
      expect(app.problems.filter((problem) => !problem.includes('429'))).toEqual([]);
      await app.close();
    },
  );

  it("calls ready() once, after the first render, and paints Telegram's header, background and bottom bar", async () => {
    const app = await signedIn({ theme: 'light' });
    const ready = await callsOf(app, 'web_app_ready');
    expect(ready).toHaveLength(1);
    expect(ready[0]?.rendered).toBe(true);
    expect(await lastParams(app, 'web_app_set_header_color')).toEqual({ color_key: 'secondary_bg_color' });
    expect(await lastParams(app, 'web_app_set_background_color')).toEqual({
      color: LIGHT_THEME.secondary_bg_color,
    });
    expect(await lastParams(app, 'web_app_set_bottom_bar_color')).toEqual({ color: LIGHT_THEME.bg_color });
    await app.close();
  });

  it('follows a theme change while the app is open', async () => {
    const app = await signedIn({ theme: 'light' });
    await app.telegramEvent('theme_changed', { theme_params: TELEGRAM_DARK_THEME });
    await expect
      .poll(() => pageState(app.page))
      .toMatchObject({ background: cssRgb(TELEGRAM_DARK_THEME.secondary_bg_color), scheme: 'dark' });
    await app.close();
  });
});

type ButtonParams = {
  is_visible?: boolean;
  is_active?: boolean;
  is_progress_visible?: boolean;
  text?: string;
};
const mainButton = async (app: AppPage) =>
  ((await lastParams(app, 'web_app_setup_main_button')) ?? {}) as ButtonParams;

const popups = async (app: AppPage) =>
  (await callsOf(app, 'web_app_open_popup')).map((call) => call.params as { message: string });

const haptics = async (app: AppPage) =>
  (await callsOf(app, 'web_app_trigger_haptic_feedback')).map((c) => c.params);

describe('native controls inside Telegram', () => {
  it('transfers with the MainButton: its text and loader, a popup first, haptics for the result', async () => {
    const app = await signedIn({ fixtures: true });
    await navigateInApp(app.page, '/wallet/internal-transfer');
    await settle(app.page);
    expect(await mainButton(app)).toMatchObject({
      is_visible: true,
      is_active: true,
      text: en.internal.submit,
    });
    // One primary action: Telegram's, not a second one in the page.
    await expect(app.page.locator('[data-action="main"]').count()).resolves.toBe(0);

    const recipient = await newUser();
    await app.page.getByLabel(en.internal.recipient).fill(String(recipient.uid));
    await app.page
      .getByTestId('recipient')
      .getByText(`@${masked(recipient.username)}`)
      .waitFor();
    await app.page.getByLabel(en.internal.amount).fill('12,5');
    // The user cancels: nothing is sent.
    const sent: string[] = [];
    app.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/wallet/inner_transaction') sent.push(request.url());
    });
    await app.page.evaluate(() => {
      (window as unknown as { __tgPopupAnswer?: string }).__tgPopupAnswer = 'cancel';
    });
    await app.telegramEvent('main_button_pressed');
    await expect.poll(() => popups(app)).toHaveLength(1);
    expect((await popups(app))[0]?.message).toBe(
      `Send 12.50 USDT to @${masked(recipient.username)} (UID ${recipient.uid})? A transfer cannot be undone.`,
    );
    expect(sent).toEqual([]);

    // The user confirms: the MainButton shows its loader while the call runs.
    await app.page.evaluate(() => {
      (window as unknown as { __tgPopupAnswer?: string }).__tgPopupAnswer = undefined;
    });
    const open = await holdRequests(app.page, '**/wallet/inner_transaction*');
    await app.telegramEvent('main_button_pressed');
    await expect.poll(() => sent.length).toBe(1);
    expect(new URL(sent[0] ?? '').searchParams.get('summ')).toBe('12.5');
    await expect.poll(() => mainButton(app)).toMatchObject({ is_progress_visible: true, is_active: false });
    open();
    // Refused (the balance on screen is sample data; the real one is empty): said in place, felt as an error.
    await app.page.getByRole('alert').first().waitFor();
    await expect.poll(() => mainButton(app)).toMatchObject({ is_progress_visible: false, is_active: true });
    await expect
      .poll(() => haptics(app))
      .toContainEqual({ type: 'notification', notification_type: 'error' });
    await app.close();
  });

  it('buys a licence with the MainButton: choose an offer, then confirm the price', async () => {
    const app = await signedIn({ fixtures: true });
    await navigateInApp(app.page, '/profile');
    await settle(app.page);
    expect((await mainButton(app)).is_visible).not.toBe(true);
    await app.page.locator('button[data-offer="PRO3"]').click();
    await expect
      .poll(() => mainButton(app))
      .toMatchObject({ is_visible: true, text: 'Upgrade to PRO3 · 300.00 USDT' });
    await expect.poll(() => haptics(app)).toContainEqual({ type: 'selection_change' });
    await app.page.evaluate(() => {
      (window as unknown as { __tgPopupAnswer?: string }).__tgPopupAnswer = 'cancel';
    });
    await app.telegramEvent('main_button_pressed');
    await expect
      .poll(async () => (await popups(app)).map((popup) => popup.message))
      .toEqual([en.profile.confirmUpgrade.replace('{{level}}', 'PRO3').replace('{{amount}}', '300.00')]);
    // Leaving the screen takes the MainButton away.
    await navigateInApp(app.page, '/wallet');
    await expect.poll(async () => (await mainButton(app)).is_visible).toBe(false);
    await app.close();
  });

  it('shows the BackButton on nested screens only, with no second arrow in the page', async () => {
    const app = await signedIn();
    await navigateInApp(app.page, '/wallet');
    await settle(app.page);
    expect(await callsOf(app, 'web_app_setup_back_button')).toEqual([]);
    await navigateInApp(app.page, '/wallet/withdraw');
    await app.page.locator('h1').first().waitFor();
    expect(await lastParams(app, 'web_app_setup_back_button')).toEqual({ is_visible: true });
    await expect(app.page.getByRole('button', { name: en.common.back }).count()).resolves.toBe(0);
    await app.telegramEvent('back_button_pressed');
    await app.page.waitForURL((url) => url.pathname === '/wallet');
    expect(await lastParams(app, 'web_app_setup_back_button')).toEqual({ is_visible: false });
    await app.close();
  });

  it('asks before closing, and before going back, while a form holds unsaved input', async () => {
    const app = await signedIn();
    await navigateInApp(app.page, '/profile/api-key');
    await settle(app.page);
    const closing = () => lastParams(app, 'web_app_setup_closing_behavior');
    await app.page.getByLabel(en.apiKey.apiKey).fill('abc');
    await expect.poll(closing).toEqual({ need_confirmation: true });
    await app.page.getByLabel(en.apiKey.apiKey).fill('');
    await expect.poll(closing).toEqual({ need_confirmation: false });
    await app.page.getByLabel(en.apiKey.secretKey).fill('secret');
    await expect.poll(closing).toEqual({ need_confirmation: true });
    // Back asks to discard it too: kept when the user cancels…
    await app.page.evaluate(() => {
      (window as unknown as { __tgPopupAnswer?: string }).__tgPopupAnswer = 'cancel';
    });
    await app.telegramEvent('back_button_pressed');
    await expect
      .poll(async () => (await popups(app)).map((popup) => popup.message))
      .toEqual([en.common.discardText]);
    expect(new URL(app.page.url()).pathname).toBe('/profile/api-key');
    await expect(app.page.getByLabel(en.apiKey.secretKey).inputValue()).resolves.toBe('secret');
    // …discarded when confirmed: leaving the form drops its input and the confirmation.
    await app.page.evaluate(() => {
      (window as unknown as { __tgPopupAnswer?: string }).__tgPopupAnswer = 'confirm';
    });
    await app.telegramEvent('back_button_pressed');
    await app.page.waitForURL((url) => url.pathname !== '/profile/api-key');
    await expect.poll(closing).toEqual({ need_confirmation: false });
    expect(await popups(app)).toHaveLength(2);
    await app.close();
  });

  it('asks through a popup before trading stops, and stops nothing when the user cancels', async () => {
    const app = await signedIn({ fixtures: true });
    await settle(app.page);
    const paused: string[] = [];
    app.page.on('request', (request) => {
      if (new URL(request.url()).pathname.includes('pause')) paused.push(request.url());
    });
    await app.page.evaluate(() => {
      (window as unknown as { __tgPopupAnswer?: string }).__tgPopupAnswer = 'cancel';
    });
    await app.page.getByRole('button', { name: en.panel.pauseAll }).click();
    await expect.poll(() => popups(app)).toHaveLength(1);
    const popup = (await callsOf(app, 'web_app_open_popup'))[0]?.params as {
      title: string;
      buttons: Array<{ type: string }>;
    };
    expect(popup.title).toBe(en.panel.confirmPauseTitle);
    expect(popup.buttons.map((button) => button.type)).toEqual(['destructive', 'cancel']);
    expect(paused).toEqual([]);
    await app.close();
  });

  it('asks through a popup before money moves to the fee balance', async () => {
    const app = await signedIn({ fixtures: true });
    await navigateInApp(app.page, '/wallet');
    await settle(app.page);
    const sent: string[] = [];
    app.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/wallet/add_money') sent.push(request.url());
    });
    await app.page.evaluate(() => {
      (window as unknown as { __tgPopupAnswer?: string }).__tgPopupAnswer = 'cancel';
    });
    await app.page.getByRole('button', { name: en.wallet.topUpFeeShort }).click();
    await app.page.getByLabel(en.topUp.amount).fill('5');
    await expect
      .poll(() => lastParams(app, 'web_app_setup_closing_behavior'))
      .toEqual({ need_confirmation: true });
    // Inside Telegram the top-up is its MainButton.
    await expect.poll(() => mainButton(app)).toMatchObject({ is_visible: true, text: en.topUp.submit });
    await app.telegramEvent('main_button_pressed');
    await expect
      .poll(async () => (await popups(app)).map((popup) => popup.message))
      .toEqual(['Move 5.00 USDT from the main balance to the fee balance?']);
    expect(sent).toEqual([]);
    await app.close();
  });

  it('gives haptics for a selection and for a success, besides tab taps', async () => {
    const app = await signedIn({ fixtures: true });
    await navigateInApp(app.page, '/wallet/withdraw');
    await settle(app.page);
    await app.page.getByRole('button', { name: en.withdraw.toExchange }).click();
    await expect.poll(() => haptics(app)).toContainEqual({ type: 'selection_change' });
    await navigateInApp(app.page, '/profile');
    await settle(app.page);
    await app.page.locator('button[data-language="ru"]').click();
    // Its toast covers neither the screen's title nor its back control, and stays on screen.
    const toast = await app.page.locator('.toast').first().boundingBox();
    await app.page.getByRole('heading', { level: 1, name: 'Профиль' }).waitFor();
    await expect
      .poll(() => haptics(app))
      .toContainEqual({ type: 'notification', notification_type: 'success' });
    const header = await app.page.locator('.screen-header').first().boundingBox();
    const height = app.page.viewportSize()?.height ?? 0;
    expect(toast && header).toBeTruthy();
    if (toast && header) {
      expect(toast.y >= header.y + header.height || toast.y + toast.height <= header.y).toBe(true);
      expect(toast.y + toast.height).toBeLessThanOrEqual(height);
    }
    await app.page.locator('button[data-language="en"]').click();
    await app.page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await app.close();
  });

  it('uses the insets Telegram reports on Android, not the fixed fallback', async () => {
    const app = await signedIn({
      client: {
        safeArea: { top: 24, bottom: 20, left: 0, right: 0 },
        contentSafeArea: { top: 46, bottom: 0, left: 0, right: 0 },
      },
    });
    const padding = () =>
      app.page.evaluate(() => {
        const root = getComputedStyle(document.documentElement);
        return {
          top: root.getPropertyValue('--safe-top').trim(),
          bottom: root.getPropertyValue('--safe-bottom').trim(),
          contentTop: getComputedStyle(document.querySelector('main.content') as Element).paddingTop,
        };
      });
    await expect.poll(padding).toEqual({ top: '70px', bottom: '20px', contentTop: '82px' });
    await app.close();
  });
});

describe('startapp deep links', () => {
  it.each([
    ['coin_btc', '/portfolio/show?coin=BTC', 'BTC'],
    ['withdraw', '/wallet/withdraw', en.withdraw.title],
    ['api_key', '/profile/api-key', en.apiKey.title],
  ])('%s opens %s over the panel', async (startParam, url, heading) => {
    const app = await signedIn({ startParam, fixtures: true });
    await app.page.waitForURL((current) => `${current.pathname}${current.search}` === url);
    await app.page.getByRole('heading', { level: 1, name: heading }).first().waitFor();
    await app.telegramEvent('back_button_pressed');
    await app.page.waitForURL((current) => current.pathname === '/');
    await app.close();
  });
});

describe('outside Telegram', () => {
  it('keeps the in-page buttons, the back arrow and the browser confirm', async () => {
    const app = await signedIn({ telegram: false, fixtures: true });
    // The forms as a browser shows them, with their own buttons (inside Telegram those are native).
    for (const [path, name] of [
      ['/portfolio/edit?coin=BTC', 'edit-token'],
      ['/wallet/internal-transfer', 'internal'],
      ['/profile/api-key', 'profile-api-key'],
      ['/wallet/withdraw', 'withdraw'],
    ] as const) {
      await navigateInApp(app.page, path);
      await app.page.locator('h1').first().waitFor();
      await settle(app.page);
      await screenshot(app.page, 'browser', name);
    }
    const withdraw = app.page.locator('[data-action="main"]');
    await expect(withdraw.innerText()).resolves.toBe(en.withdraw.submit);
    await app.page.getByLabel(en.withdraw.amount).fill('20');
    const dialogs: string[] = [];
    app.page.once('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const sent: string[] = [];
    app.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/wallet/withdraw_money') sent.push(request.url());
    });
    await withdraw.click();
    await expect
      .poll(() => dialogs)
      .toEqual(['Withdraw 20.00 USDT to TLa2f6VP…ay5wYjU7? Network fee 1.00 USDT, you receive 19.00 USDT.']);
    expect(sent).toEqual([]);
    // The typed amount is unsaved input: Back asks before discarding it.
    app.page.once('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await app.page.getByRole('button', { name: en.common.back }).click();
    await app.page.waitForURL((url) => url.pathname === '/profile/api-key');
    expect(dialogs[1]).toBe(en.common.discardText);
    await app.close();
  });
});

describe('screenshots in Telegram themes', () => {
  it.each(['light', 'dark'] as const)('takes a screenshot of every screen in the %s theme', async (name) => {
    const app = await signedIn({ theme: name, fixtures: true });
    for (const route of ROUTE_LIST) {
      if (route.hidden || route.layout === 'guest') continue;
      const path =
        route.path === '/portfolio/show' || route.path === '/portfolio/edit'
          ? `${route.path}?coin=BTC`
          : route.path;
      await navigateInApp(app.page, path);
      await app.page.locator('h1').first().waitFor();
      await settle(app.page);
      await app.page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(app.page, `theme-${name}`, route.name);
    }
    for (const path of ['/login', '/register']) {
      await navigateInApp(app.page, path);
      await app.page.locator('h1').first().waitFor();
      await settle(app.page);
      await screenshot(app.page, `theme-${name}`, path.slice(1));
    }
    expect(app.problems).toEqual([]);
    await app.close();
  });
});
