import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openAppPage, screenshot, settle } from './support/browser';
import { type Stack, startStack } from './support/stack';

let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ demo: true }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('outside Telegram (embedded demo)', () => {
  it('opens in an ordinary browser signed in as the demo user', async () => {
    const app = await openAppPage(browser, { telegram: false });
    const demo = app.page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/demo/launch-data',
    );
    await app.page.goto(stack.baseUrl);
    expect((await demo).status()).toBe(200);
    await app.page.getByRole('heading', { level: 1, name: 'Hi, Demo' }).waitFor();
    await app.page.locator('nav.tabbar').waitFor();
    // The launch parameters went into the hash, so the SDK started as inside Telegram.
    expect(new URL(app.page.url()).hash).toContain('tgWebAppData=');
    // With no Telegram client, theme and viewport requests were answered in the page (by the SDK,
    // which loads once the first screen is on the page).
    await expect
      .poll(() =>
        app.page.evaluate(() =>
          getComputedStyle(document.documentElement).getPropertyValue('--tg-theme-bg-color').trim(),
        ),
      )
      .toBe('#17212b');

    await app.page.locator('nav.tabbar a[data-tab="profile"]').click();
    await app.page.getByText('@demo_trader').waitFor();
    await settle(app.page);
    await screenshot(app.page, 'en', 'demo-profile');

    expect(app.problems).toEqual([]);

    // A reload keeps the demo session (the launch parameters stay in the tab). The server may refuse
    // the second panel and wallet call within its 2 s window; that is its rate limit, not a fault.
    await app.page.reload();
    await app.page.getByText('@demo_trader').waitFor();
    await app.close();
  });
});
