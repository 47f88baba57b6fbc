import { errorCatalogue } from '@gridbot/contracts';
import type { User } from '@gridbot/db';
import { getNotificationSettings } from '@gridbot/services';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cn } from '../src/i18n/locales/cn';
import { en } from '../src/i18n/locales/en';
import { ru } from '../src/i18n/locales/ru';
import { ROUTE_LIST } from '../src/router/route-table';
import {
  type AppPage,
  launchBrowser,
  navigateInApp,
  openAppPage,
  screenshot,
  screenUrlOf,
  settle,
} from './support/browser';
import { serveFixtures } from './support/fixtures';
import { type Stack, startStack } from './support/stack';

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

const TABS = [
  ['wallet', '/wallet', 'Wallet'],
  ['portfolio', '/portfolio', 'Portfolio'],
  ['partners', '/partners', 'Partners'],
  ['profile', '/profile', 'Profile'],
  ['panel', '/', 'Hi, Maria'],
] as const;

/**
 * A new user per test: the server's per-user limits (panel and wallet 1 call per 2 s) would refuse
 * the next test's initial load for the same user.
 */
const signedIn = async (language = 'en', options: { fixtures?: boolean; timezoneId?: string } = {}) => {
  users += 1;
  const user: User = await stack.createUser({
    username: `maria_${users}`,
    firstName: 'Maria',
    lastName: 'Ivanova',
  });
  const app = await openAppPage(browser, options.timezoneId ? { timezoneId: options.timezoneId } : {});
  if (options.fixtures) await serveFixtures(app.page);
  await app.page.goto(stack.launchUrlFor(user, { languageCode: language }));
  await app.page.locator('nav.tabbar').waitFor();
  return app;
};

const waitForToastsToLeave = (app: AppPage) =>
  app.page.waitForFunction(() => !document.querySelector('.toast'), undefined, { timeout: 10_000 });

describe('screens', () => {
  it('navigates to every tab from the tab bar with haptic feedback', async () => {
    const app = await signedIn();
    // The SDK loads after the first screen (docs/performance.md#web): a tap before it is ready has
    // no haptic to trigger.
    await expect
      .poll(async () => (await app.telegramCalls()).some((call) => call.type === 'web_app_ready'))
      .toBe(true);
    for (const [tab, path, heading] of TABS) {
      await app.page.locator(`nav.tabbar a[data-tab="${tab}"]`).click();
      await app.page.waitForURL((url) => url.pathname === path);
      await app.page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await expect(
        app.page.locator(`nav.tabbar a[data-tab="${tab}"]`).getAttribute('aria-current'),
      ).resolves.toBe('page');
      await expect(app.page.locator('nav.tabbar a[aria-current="page"]').count()).resolves.toBe(1);
    }
    const current = app.page.locator('nav.tabbar a[aria-current="page"]');
    await settle(app.page);
    await expect(current.evaluate((element) => getComputedStyle(element).color)).resolves.toBe(
      'rgb(200, 95, 255)',
    );
    const haptics = (await app.telegramCalls()).filter(
      (call) => call.type === 'web_app_trigger_haptic_feedback',
    );
    expect(haptics).toHaveLength(TABS.length);
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it('highlights the tab each screen belongs to (route table), e.g. /pnl-stat → panel', async () => {
    const app = await signedIn();
    for (const route of ROUTE_LIST.filter((entry) => entry.layout === 'user' && !entry.hidden)) {
      await navigateInApp(app.page, screenUrlOf(route.path));
      await settle(app.page);
      const current = () =>
        app.page
          .locator('nav.tabbar a[aria-current="page"]')
          .evaluateAll((links) => links.map((link) => link.getAttribute('data-tab')));
      await expect.poll(current, { message: route.path }).toEqual([route.tab]);
    }
    await app.close();
  });

  it('highlights the panel tab on /pnl-stat from the moment it is opened, even while it loads', async () => {
    const app = await signedIn();
    await navigateInApp(app.page, '/partners');
    await settle(app.page);
    // Hold the screen's chunk: the state between the new address and the new screen is what a
    // user on a slow network looks at.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await app.page.route('**/assets/pnl-stat-screen-*.js', async (route) => {
      await held;
      await route.continue();
    });
    await navigateInApp(app.page, '/pnl-stat');
    await app.page.locator('.loader').waitFor();
    const current = () =>
      app.page
        .locator('nav.tabbar a[aria-current="page"]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('data-tab')));
    await expect.poll(current).toEqual(['panel']);
    release();
    await app.page.getByRole('heading', { level: 1, name: 'PNL statistics' }).waitFor();
    await expect.poll(current).toEqual(['panel']);
    await app.close();
  });

  it('validates the settings form with the contract and shows errors by code, in Russian', async () => {
    const app = await signedIn('en', { fixtures: true });
    await navigateInApp(app.page, '/profile');
    await app.page.locator('button[data-language="ru"]').click();
    await app.page.getByRole('heading', { level: 1, name: 'Профиль' }).waitFor();
    await waitForToastsToLeave(app);
    await navigateInApp(app.page, '/portfolio/edit?coin=BTC');
    await settle(app.page);
    const edits: string[] = [];
    app.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/portfolio/setting/edit') edits.push(request.postData() ?? '');
    });
    await app.page.getByLabel(ru.editToken.step).fill('10');
    await app.page.getByLabel(ru.editToken.stepIncrease).fill('10');
    // 150: within the market's 200 open orders (MAX_NUM_ORDERS), too deep with these steps.
    await app.page.getByLabel(ru.editToken.maxTrades).fill('150');
    // Inside Telegram "Save" is its MainButton.
    await app.telegramEvent('main_button_pressed');
    // The contract's cross-field rule, caught before anything is sent (saved or previewed).
    await app.page.getByText(ru.validation.deepestStep.replace('{{max}}', '100')).waitFor();
    expect(
      edits.filter((body) => JSON.parse(body).preview === false || JSON.parse(body).maxTrades === 150),
    ).toEqual([]);

    // A decimal comma is what a Russian keyboard types; the server gets a point. Its refusal is
    // shown by code: the English message of another code must not choose the text.
    await app.page.route('**/portfolio/setting/edit', (route) =>
      route.fulfill({
        status: 422,
        contentType: 'application/json',
        body: JSON.stringify({
          error: true,
          status: 422,
          code: 'COIN_LIMIT',
          message: 'No API connection',
          detail: 'server detail',
        }),
      }),
    );
    await app.page.getByLabel(ru.editToken.stepIncrease).fill('0,3');
    await app.telegramEvent('main_button_pressed');
    // In place, next to the form (the live preview meets the same refusal).
    await app.page.getByRole('alert').getByText(errorCatalogue.COIN_LIMIT.detail.ru).waitFor();
    const saves = () => edits.map((body) => JSON.parse(body)).filter((body) => body.preview === false);
    await expect.poll(() => saves().length).toBe(1);
    expect(saves()[0]).toMatchObject({
      stepPct: '10',
      stepIncreasePct: '0.3',
      maxTrades: 150,
    });
    await settle(app.page);
    await screenshot(app.page, 'ru/with-data', 'edit-token-refused');

    await navigateInApp(app.page, '/profile');
    await app.page.locator('button[data-language="en"]').click();
    await waitForToastsToLeave(app);
    // The browser logs the refused call itself; nothing else may complain.
    expect(app.problems.filter((problem) => !problem.includes('status of 422'))).toEqual([]);
    await app.close();
  });

  it('renders every route without console errors', async () => {
    const app = await signedIn();
    for (const route of ROUTE_LIST) {
      await navigateInApp(app.page, screenUrlOf(route.path));
      if (route.hidden) {
        // The under-development section exists and is not shown.
        await app.page.waitForURL((url) => url.pathname === '/');
        continue;
      }
      await app.page.locator('h1').first().waitFor();
      await settle(app.page);
      const text = await app.page.locator('body').innerText();
      expect(text, route.path).not.toMatch(/lorem|ipsum|undefined|NaN|\[object Object\]|panel\.|errors\./);
    }
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it('labels PnL days as UTC days and shows runtime and return beside the PnL, in en, ru and cn', async () => {
    // A phone in Los Angeles: the top PnL row, 30 March (UTC), is still the 29th there at 17:00.
    const app = await signedIn('en', { fixtures: true, timezoneId: 'America/Los_Angeles' });
    const fill = (text: string, values: Record<string, string>) =>
      text.replace(/{{(\w+)}}/g, (_, name: string) => values[name] ?? '');
    for (const [language, texts] of [
      ['en', en],
      ['ru', ru],
      ['cn', cn],
    ] as const) {
      if (language !== 'en') {
        await navigateInApp(app.page, '/profile');
        await app.page.locator(`button[data-language="${language}"]`).click();
        await app.page.waitForFunction(
          (lang) => document.documentElement.lang.startsWith(lang === 'cn' ? 'zh' : lang),
          language,
        );
        await waitForToastsToLeave(app);
      }
      const pct = (value: string) => `+${language === 'ru' ? value.replace('.', ',') : value}%`;
      // The panel (fixtures: 87.34 % since 20 Dec, 379.23 % a year, 84 d 1 h 30 min).
      await navigateInApp(app.page, '/');
      const hero = app.page.locator('.hero').first();
      await hero.getByText(texts.panel.pnlToday).waitFor();
      const run = hero.locator('.hero__row--run');
      await expect.poll(() => run.innerText()).toContain(texts.run.returnPct);
      const runText = await run.innerText();
      for (const part of [pct('87.34'), pct('379.23'), fill(texts.run.days, { days: '84', hours: '1' })]) {
        expect(runText).toContain(part);
      }
      await app.page.getByText(texts.panel.coinsToday).waitFor();
      await settle(app.page);
      await screenshot(app.page, `${language}/with-data`, 'panel-run-return');

      // PnL statistics: UTC days, labelled so, whatever the phone's zone.
      await navigateInApp(app.page, '/pnl-stat');
      await app.page.locator('.pnl-utc-note').getByText(texts.pnl.utcDays, { exact: true }).waitFor();
      // The browser's own words for 30 March 2025 in the app's language, read as a UTC day.
      const utc30March = await app.page.evaluate(() =>
        new Intl.DateTimeFormat(document.documentElement.lang, {
          day: 'numeric',
          month: 'short',
          year: 'numeric',
          timeZone: 'UTC',
        }).format(Date.UTC(2025, 2, 30)),
      );
      await expect.poll(() => app.page.locator('.row__title').first().innerText()).toBe(utc30March);

      // The coin page: 61.42 % of its 300 USDT, 315.84 % a year, 70 d 23 h.
      await navigateInApp(app.page, '/portfolio/show?coin=BTC');
      const card = app.page.locator('.card').filter({ hasText: texts.run.title });
      await card.waitFor();
      const cardText = await card.innerText();
      for (const part of [
        pct('61.42'),
        pct('315.84'),
        fill(texts.run.days, { days: '70', hours: '23' }),
        texts.run.capitalNote,
      ]) {
        expect(cardText).toContain(part);
      }
    }
    await navigateInApp(app.page, '/profile');
    await app.page.locator('button[data-language="en"]').click();
    await waitForToastsToLeave(app);
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it('says which bulk switch failed in its own words, and keeps two quick notification toggles', async () => {
    const app = await signedIn('en', { fixtures: true });
    await settle(app.page);
    // An answer nobody planned for (not a catalogue code): each action's own fallback text.
    const unplanned = { error: true, status: 503, code: 'UPSTREAM_DOWN', message: 'upstream', detail: '' };
    for (const path of ['**/portfolio/dry_coins*', '**/portfolio/activate_coins*']) {
      await app.page.route(path, (route) =>
        route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify(unplanned) }),
      );
    }
    await app.page.getByRole('switch', { name: en.panel.dryAll }).click();
    await app.page.locator('.toast', { hasText: en.fallback.dryAll }).waitFor();
    await app.page.getByRole('button', { name: en.panel.activateAll }).click();
    await app.page.locator('.toast', { hasText: en.fallback.activateCoins }).waitFor();
    await expect(app.page.getByText(en.fallback.stopTrading).count()).resolves.toBe(0);
    await app.close();

    // Two notification switches toggled at once: both reach the server, none is refused.
    const other = await signedIn();
    const user = await stack.prisma.user.findFirstOrThrow({ where: { username: `maria_${users}` } });
    await navigateInApp(other.page, '/profile');
    const fills = other.page.getByRole('switch', { name: en.profile.notificationKinds.fills });
    const daily = other.page.getByRole('switch', { name: en.profile.notificationKinds.dailyReport });
    await fills.click();
    await daily.click();
    await expect(fills.getAttribute('aria-checked')).resolves.toBe('true');
    await expect(daily.getAttribute('aria-checked')).resolves.toBe('true');
    await expect
      .poll(
        async () => {
          const stored = await getNotificationSettings(stack.ctx, { userId: user.id });
          return [stored.fills, stored.dailyReport];
          // The second change leaves a window (1 s and a margin) after the first.
        },
        { timeout: 10_000 },
      )
      .toEqual([true, true]);
    await expect(other.page.getByText(errorCatalogue.RATE_LIMITED.detail.en).count()).resolves.toBe(0);
    await other.close();
  });

  it('keeps the chosen language across a reload (stored on the server)', async () => {
    const app = await signedIn();
    await navigateInApp(app.page, '/profile');
    const saved = app.page.waitForResponse((response) =>
      response.url().includes('/home/config/localization/set?data=ru'),
    );
    await app.page.locator('button[data-language="ru"]').click();
    expect((await saved).status()).toBe(200);
    await app.page.getByRole('heading', { level: 1, name: 'Профиль' }).waitFor();
    await expect(app.page.locator('html').getAttribute('lang')).resolves.toBe('ru');

    await app.page.reload();
    await app.page.locator('nav.tabbar').waitFor();
    await app.page.getByRole('heading', { level: 1, name: 'Профиль' }).waitFor();
    await expect(app.page.locator('nav.tabbar a[data-tab="wallet"]').innerText()).resolves.toBe('Кошелёк');

    // Back to English for the other tests.
    await app.page.locator('button[data-language="en"]').click();
    await app.page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await app.close();
  });

  it('shows prices at the tick with their zeros, and the fee balance in one format on the panel and the wallet, in en, ru and cn', async () => {
    const app = await openAppPage(browser);
    await serveFixtures(app.page);
    // docs/conventions.md#money-and-numbers: BTC's tick is 0.01 and its lot step 0.00001 (fixtures);
    // the fee balance is exact wherever it is shown. Russian groups with a no-break space.
    const expected = {
      en: {
        last: '65,420.50',
        avg: '66,052.63',
        ladder: ['66,429.60 · Lot 103', '63,152.10 · Lot 106', '0.00038 @ 64,958.20'],
        fee: '48.60512 USDT',
      },
      ru: {
        last: '65 420,50',
        avg: '66 052,63',
        ladder: ['66 429,60 · Лот 103', '63 152,10 · Лот 106', '0,00038 @ 64 958,20'],
        fee: '48,60512 USDT',
      },
      cn: {
        last: '65,420.50',
        avg: '66,052.63',
        ladder: ['66,429.60 · 第 103 笔', '63,152.10 · 第 106 笔', '0.00038 @ 64,958.20'],
        fee: '48.60512 USDT',
      },
    } as const;
    const spaced = (text: string) => text.replace(/\u00a0/g, ' ');
    for (const language of ['en', 'ru', 'cn'] as const) {
      const want = expected[language];
      // A user of each language (the one they chose, stored on the server); the panel opens first.
      users += 1;
      const user = await stack.createUser({ username: `maria_${users}`, firstName: 'Maria' });
      await stack.prisma.userConfig.create({
        data: { userId: user.id, name: 'localization', value: language },
      });
      await app.page.goto(stack.launchUrlFor(user, { languageCode: language }));
      const panelFee = app.page.locator('a[href="/wallet"] .mini-card__value');
      await expect.poll(async () => spaced(await panelFee.innerText())).toBe(want.fee);
      await panelFee.scrollIntoViewIfNeeded();
      await screenshot(app.page, `${language}/with-data`, 'panel-fee-balance');
      await navigateInApp(app.page, '/wallet');
      const walletFee = app.page.locator('[data-testid="balance-fee"] b');
      await expect.poll(async () => spaced(await walletFee.innerText())).toBe(want.fee);

      await navigateInApp(app.page, '/portfolio/show?coin=BTC');
      const hero = app.page.locator('.hero', { hasText: 'BTC/USDT' }).locator('.hero__value');
      await hero.waitFor({ timeout: 20_000 });
      await expect.poll(async () => spaced(await hero.innerText())).toBe(want.last);
      const page = spaced(await app.page.locator('body').innerText());
      for (const text of [want.avg, ...want.ladder]) expect(page, language).toContain(text);
      await settle(app.page);
      await app.page.locator('.row__title').first().scrollIntoViewIfNeeded();
      await screenshot(app.page, `${language}/with-data`, 'token-ladder-at-tick');
    }
    expect(app.problems).toEqual([]);
    await app.close();
  });

  // With sample data, and in English without, a11y.e2e takes the same screenshots (and checks the
  // same texts) as it checks each screen.
  it.each(['ru', 'cn'] as const)(
    'takes a screenshot of every screen in %s as the API answers today',
    async (language) => {
      const app = await signedIn('en');
      await navigateInApp(app.page, '/profile');
      await app.page.locator('h1').first().waitFor();
      await app.page.locator(`button[data-language="${language}"]`).click();
      await app.page.waitForFunction(
        (lang) => document.documentElement.lang.startsWith(lang === 'cn' ? 'zh' : lang),
        language,
      );
      await waitForToastsToLeave(app);
      for (const route of ROUTE_LIST) {
        if (route.hidden || route.layout === 'guest') continue;
        await navigateInApp(app.page, screenUrlOf(route.path));
        await app.page.locator('h1').first().waitFor();
        await settle(app.page);
        await app.page.evaluate(() => window.scrollTo(0, 0));
        const text = await app.page.locator('body').innerText();
        expect(text, route.path).not.toMatch(/undefined|NaN|\[object Object\]|null/);
        await screenshot(app.page, language, route.name);
      }
      for (const path of ['/login', '/register']) {
        await navigateInApp(app.page, path);
        await app.page.locator('h1').first().waitFor();
        await settle(app.page);
        await screenshot(app.page, language, path.slice(1));
      }
      await navigateInApp(app.page, '/profile');
      await app.page.locator('button[data-language="en"]').click();
      await waitForToastsToLeave(app);
      expect(app.problems).toEqual([]);
      await app.close();
    },
  );
});
