import type { User } from '@gridbot/db';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type AppPage,
  launchBrowser,
  navigateInApp,
  openAppPage,
  screenshot,
  settle,
} from './support/browser';
import { type Stack, startStack } from './support/stack';

let stack: Stack;
let browser: Browser;
let user: User;
let users = 0;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchBrowser()]);
});

// A new user per test: the server limits the panel and the wallet to 1 call per 2 s per user.
beforeEach(async () => {
  users += 1;
  user = await stack.createUser({ username: `anna_grid_${users}`, firstName: 'Anna' });
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const isLogin = (url: string) => new URL(url).pathname === '/auth/login';

describe('session', () => {
  it('signs in from the launch data and shows the panel with the tab bar', async () => {
    const app = await openAppPage(browser);
    const login = app.page.waitForRequest((request) => isLogin(request.url()) && request.method() === 'POST');
    await app.page.goto(stack.launchUrlFor(user));
    const request = await login;
    expect(request.headers()).toMatchObject({
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
    });
    expect(JSON.parse(request.postData() ?? '{}')).toMatchObject({
      user_id: Number(user.telegramId),
      first_name: 'Anna',
      username: user.username,
      _auth: expect.stringContaining('hash='),
    });
    await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
    await expect(app.page.locator('nav.tabbar a[data-tab]').count()).resolves.toBe(5);
    await expect(
      app.page.locator('nav.tabbar a[data-tab="panel"]').getAttribute('aria-current'),
    ).resolves.toBe('page');

    const cookies = await app.context.cookies();
    const token = cookies.find((cookie) => cookie.name === 'gb_token');
    expect(token).toMatchObject({ path: '/', sameSite: 'Lax' });
    expect((token?.expires ?? 0) - Date.now() / 1000).toBeGreaterThan(86_000);
    expect(cookies.some((cookie) => cookie.name === 'gb_user')).toBe(true);

    // Signed-in calls carry the bearer token and the docs/product.md#calls headers.
    const call = app.page.waitForRequest((r) => new URL(r.url()).pathname === '/home/pnl/daily');
    await navigateInApp(app.page, '/pnl-stat');
    expect((await call).headers()).toMatchObject({
      authorization: `Bearer ${token?.value}`,
      accept: 'application/json',
      'x-requested-with': 'XMLHttpRequest',
    });
    await settle(app.page);
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it('sends sign-in once, from the page, before the app code has arrived', async () => {
    const app = await openAppPage(browser);
    const order: string[] = [];
    app.page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (isLogin(request.url())) order.push('login sent');
      else if (/^\/assets\/index-.*\.js$/.test(path)) order.push('entry asked');
    });
    app.page.on('requestfinished', (request) => {
      if (/^\/assets\/index-.*\.js$/.test(new URL(request.url()).pathname)) order.push('entry arrived');
    });
    // The entry's code is held back: the page's own script has signed in by then.
    await app.page.route('**/assets/index-*.js', async (route) => {
      await expect.poll(() => order.includes('login sent')).toBe(true);
      await route.continue();
    });
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
    await settle(app.page);
    expect(order.filter((step) => step === 'login sent')).toHaveLength(1);
    expect(order.indexOf('login sent')).toBeLessThan(order.indexOf('entry arrived'));
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it('sends the initial load from the page once sign-in answers, each call once, and shows its answers', async () => {
    const app = await openAppPage(browser);
    const INITIAL = [
      'GET /home/config/localization/get',
      'POST /home/',
      'POST /portfolio/?period=day',
      `GET /portfolio/profit?user_id=${user.uid}&days=30`,
      'GET /partners/',
      'POST /profile/',
      'POST /wallet?days=30&page=1&limit=10',
    ];
    const sent: string[] = [];
    const withoutToken: string[] = [];
    let entryArrived = false;
    app.page.on('request', (request) => {
      const url = new URL(request.url());
      const call = `${request.method()} ${url.pathname}${url.search}`;
      if (!INITIAL.includes(call)) return;
      sent.push(call);
      if (!request.headers().authorization?.startsWith('Bearer ')) withoutToken.push(call);
    });
    app.page.on('requestfinished', (request) => {
      if (/^\/assets\/index-.*\.js$/.test(new URL(request.url()).pathname)) entryArrived = true;
    });
    // The entry's code is held back until the page has sent the whole initial load by itself.
    await app.page.route('**/assets/index-*.js', async (route) => {
      // Sign-in comes first; under a loaded machine its answer may take seconds.
      await expect.poll(() => sent.length, { timeout: 30_000 }).toBe(INITIAL.length);
      expect(entryArrived).toBe(false);
      await route.continue();
    });
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
    await app.page.locator('html[data-first-screen="ready"]').waitFor({ state: 'attached' });
    await settle(app.page);
    // The app took every answer as its own call: nothing was asked twice (the panel and the
    // wallet would have been refused with a 429 within 2 s).
    expect([...sent].sort()).toEqual([...INITIAL].sort());
    expect(withoutToken).toEqual([]);
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it('prepares the phone: fullscreen, expanded, vertical swipes off, theme and viewport', async () => {
    const app = await openAppPage(browser);
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
    await expect
      .poll(async () => (await app.telegramCalls()).map((call) => call.type))
      .toEqual(
        expect.arrayContaining([
          'web_app_request_viewport',
          'web_app_request_safe_area',
          'web_app_request_fullscreen',
          'web_app_expand',
          'web_app_setup_swipe_behavior',
          'web_app_ready',
        ]),
      );
    const swipes = (await app.telegramCalls()).find((call) => call.type === 'web_app_setup_swipe_behavior');
    expect(swipes?.params).toEqual({ allow_vertical_swipe: false });
    // Telegram's theme colours and the Android safe area reach the CSS.
    const style = await app.page.evaluate(() => {
      const root = getComputedStyle(document.documentElement);
      return {
        bg: root.getPropertyValue('--tg-theme-bg-color').trim(),
        top: root.getPropertyValue('--safe-top').trim(),
        bottom: root.getPropertyValue('--safe-bottom').trim(),
        height: root.getPropertyValue('--app-height').trim(),
      };
    });
    expect(style).toEqual({ bg: '#17212b', top: '23px', bottom: '16px', height: '844px' });
    await app.close();
  });

  it('goes to the login screen on a 401, with the token cleared', async () => {
    const app = await openAppPage(browser);
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
    // The panel's own calls (its sections below the fold come after the first paint) are done.
    await settle(app.page);
    await app.context.addCookies([
      { name: 'gb_token', value: 'expired', url: stack.baseUrl, sameSite: 'Lax' },
    ]);
    const refused = app.page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/home/pnl/daily',
    );
    await navigateInApp(app.page, '/pnl-stat');
    expect((await refused).status()).toBe(401);
    await app.page.waitForURL((url) => url.pathname === '/login');
    await app.page.getByRole('button', { name: 'Sign in with Telegram' }).waitFor();
    const cookies = await app.context.cookies();
    expect(cookies.find((cookie) => cookie.name === 'gb_token')).toBeUndefined();
    expect(cookies.find((cookie) => cookie.name === 'gb_user')).toBeUndefined();

    // Signing in again from there returns to the panel.
    await app.page.getByRole('button', { name: 'Sign in with Telegram' }).click();
    await app.page.waitForURL((url) => url.pathname === '/');
    await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
    await app.close();
  });

  it('signs out on all devices: the session-ended state, the old token and launch data refused', async () => {
    const app = await openAppPage(browser);
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
    await settle(app.page);
    const token = (await app.context.cookies()).find((cookie) => cookie.name === 'gb_token')?.value;
    expect(token).toBeTruthy();
    await navigateInApp(app.page, '/profile');
    const button = app.page.getByTestId('logout-all');
    await button.scrollIntoViewIfNeeded();
    await settle(app.page);
    await screenshot(app.page, 'en', 'profile-sessions');
    const ended = app.page.waitForResponse((r) => new URL(r.url()).pathname === '/auth/logout_all');
    // The fake Telegram client confirms the popup.
    await button.click();
    expect((await ended).status()).toBe(200);
    await app.page.getByTestId('session-ended').waitFor();
    await app.page.getByRole('heading', { name: 'Signed out on all devices' }).waitFor();
    await settle(app.page);
    await screenshot(app.page, 'en', 'session-ended');
    expect((await app.context.cookies()).find((cookie) => cookie.name === 'gb_token')).toBeUndefined();
    // The token the page had is refused at once, on any call.
    const refused = await fetch(`${stack.baseUrl}/profile/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(401);
    // Reloading with the same launch data does not sign in again: it was signed before the sign-out.
    const login = app.page.waitForResponse((r) => isLogin(r.url()));
    await app.page.reload();
    expect((await login).status()).toBe(401);
    await app.page.getByTestId('session-invalid').waitFor();
    expect(app.problems.filter((problem) => !problem.includes('status of 401'))).toEqual([]);
    await app.close();
  });

  it('signs in again every 540 s', async () => {
    const app = await openAppPage(browser);
    await app.page.clock.install();
    let logins = 0;
    app.page.on('request', (request) => {
      if (isLogin(request.url())) logins += 1;
    });
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
    expect(logins).toBe(1);
    // The timer started a moment after the page loaded: 530 s later it has not fired yet.
    await app.page.clock.fastForward(530_000);
    expect(logins).toBe(1);
    const again = app.page.waitForRequest((request) => isLogin(request.url()));
    await app.page.clock.fastForward(10_000);
    await again;
    expect(logins).toBe(2);
    await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
    await app.close();
  });

  it('signs in again when the mini app becomes active', async () => {
    const app = await openAppPage(browser);
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
    // The SDK, which reports the activation, loads once the first screen is on the page.
    await expect
      .poll(async () => (await app.telegramCalls()).some((call) => call.type === 'web_app_ready'))
      .toBe(true);
    const again = app.page.waitForRequest((request) => isLogin(request.url()));
    await app.page.evaluate(() => {
      const telegram = (
        window as unknown as { Telegram: { WebView: { receiveEvent: (t: string, d: unknown) => void } } }
      ).Telegram;
      telegram.WebView.receiveEvent('visibility_changed', { is_visible: true });
    });
    await again;
    await app.close();
  });

  describe('re-authorisation that fails (docs/security.md#re-authorisation)', () => {
    /** A re-authorisation now, as when the page becomes visible again. */
    const reauthorise = (app: AppPage) =>
      app.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    const refusalBody = (status: number, code: string) =>
      JSON.stringify({ error: true, status, code, message: code, detail: code });
    const blips = (problems: string[]) =>
      problems.filter((problem) => !/ERR_INTERNET_DISCONNECTED|429: \/auth\/login/.test(problem));

    it('a network blip and the sign-in limit: the app stays on its screen and signs in again', async () => {
      const app = await openAppPage(browser);
      await app.page.goto(stack.launchUrlFor(user));
      await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
      await settle(app.page);
      const answers: string[] = [];
      let failures = 0;
      await app.page.route('**/auth/login', async (route) => {
        failures += 1;
        if (failures === 1) return route.abort('internetdisconnected');
        if (failures === 2) {
          return route.fulfill({
            status: 429,
            contentType: 'application/json',
            headers: { 'Retry-After': '1' },
            body: refusalBody(429, 'RATE_LIMITED'),
          });
        }
        return route.continue();
      });
      app.page.on('response', (response) => {
        if (isLogin(response.url())) answers.push(String(response.status()));
      });
      await reauthorise(app);
      await expect.poll(() => answers, { timeout: 15_000 }).toEqual(['429', '200']);
      expect(failures).toBe(3);
      // The screen never left: no invalid-session text, no error modal, the tab bar still there.
      expect(await app.page.getByTestId('session-invalid').count()).toBe(0);
      expect(await app.page.getByRole('alertdialog').count()).toBe(0);
      await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
      expect(await app.page.locator('nav.tabbar a[data-tab]').count()).toBe(5);
      expect(blips(app.problems)).toEqual([]);
      await app.close();
    });

    it('a refusal (401) still shows the invalid-session text', async () => {
      const app = await openAppPage(browser);
      await app.page.goto(stack.launchUrlFor(user));
      await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
      await settle(app.page);
      await app.page.route('**/auth/login', (route) =>
        route.fulfill({
          status: 401,
          contentType: 'application/json',
          body: refusalBody(401, 'INIT_DATA_INVALID'),
        }),
      );
      await reauthorise(app);
      await app.page.getByTestId('session-invalid').waitFor();
      await expect(app.page.getByTestId('error-text').innerText()).resolves.toBe(
        'Session is invalid. Please close and reopen the WebApp in Telegram.',
      );
      expect(await app.page.locator('nav.tabbar').count()).toBe(0);
      await app.close();
    });

    it('the token expires while the server is out of reach: "retrying", then back', async () => {
      const app = await openAppPage(browser);
      await app.page.clock.install();
      await app.page.goto(stack.launchUrlFor(user));
      await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
      await settle(app.page);
      await app.page.route('**/auth/login', (route) => route.abort('internetdisconnected'));
      // A day later, every renewal having failed: the token has expired.
      await app.page.clock.fastForward(86_400_000);
      await app.page.getByTestId('session-unreachable').waitFor();
      await app.page.getByRole('heading', { name: "Can't reach the server" }).waitFor();
      expect(await app.page.getByTestId('session-invalid').count()).toBe(0);
      expect(await app.page.getByRole('alertdialog').count()).toBe(0);
      await screenshot(app.page, 'en', 'session-unreachable');
      await app.page.unroute('**/auth/login');
      await app.page.getByRole('button', { name: 'Try now' }).click();
      await app.page.getByRole('heading', { name: 'Hi, Anna' }).waitFor();
      await app.close();
    });
  });
});
