import type { User } from '@gridbot/db';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/locales/en';
import { ru } from '../src/i18n/locales/ru';
import { cutTexts, headingProblems, seriousViolations, smallTapTargets } from './support/a11y';
import {
  type AppPage,
  launchBrowser,
  navigateInApp,
  openAppPage,
  screenshot,
  settle,
} from './support/browser';
import { CLOSED_DEALS, OPEN_DEALS, REJECTION_MESSAGE } from './support/coin-history-fixtures';
import { serveFixtures } from './support/fixtures';
import { type Stack, startStack } from './support/stack';

/**
 * The coin page's deals and activity log and the panel's coin profit and coin rating, against the
 * real API and the contract-checked sample answers of e2e/support (coin-history-fixtures.ts).
 */
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

/** A new user per test (the panel's 1 call per 2 s is per user), the sample answers, a language. */
const signedIn = async (language: 'en' | 'ru' = 'en') => {
  users += 1;
  const user: User = await stack.createUser({
    username: `coin_${users}`,
    firstName: 'Ada',
    lastName: 'King',
  });
  const app = await openAppPage(browser);
  await serveFixtures(app.page);
  await app.page.goto(stack.launchUrlFor(user));
  await app.page.locator('nav.tabbar').waitFor();
  if (language !== 'en') {
    await navigateInApp(app.page, '/profile');
    await app.page.locator(`button[data-language="${language}"]`).click();
    await app.page.waitForFunction((lang) => document.documentElement.lang.startsWith(lang), language);
  }
  return app;
};

/** Requests to a path, with their query, as the page sends them. */
const recordCalls = (page: Page, pathname: string) => {
  const calls: URLSearchParams[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === pathname) calls.push(url.searchParams);
  });
  return calls;
};

const at = (pathname: string) => (url: URL) => url.pathname === pathname;

/** Answers a path with the API's error body instead of the fixture; the returned function undoes it. */
const failing = async (page: Page, pathname: string) => {
  const matcher = at(pathname);
  await page.route(matcher, (route) =>
    route.fulfill({
      status: 503,
      contentType: 'application/json',
      body: JSON.stringify({ error: true, status: 503, code: 'EXCHANGE_UNAVAILABLE', message: 'down' }),
    }),
  );
  return () => page.unroute(matcher);
};

const deals = (app: AppPage) => app.page.locator('.deal');
const openCoinPage = async (app: AppPage) => {
  await navigateInApp(app.page, '/portfolio/show?coin=BTC');
  await app.page.getByRole('heading', { level: 2, name: en.deals.title }).waitFor();
  await settle(app.page);
};

describe('coin page: deals', () => {
  it('shows the open deals, switches to the closed ones, loads more and opens a deal', async () => {
    const app = await signedIn();
    const calls = recordCalls(app.page, '/portfolio/trades');
    await openCoinPage(app);
    await expect(deals(app).count()).resolves.toBe(OPEN_DEALS);
    const first = deals(app).first();
    // Open deals: the newest lot first, its take profit and its PnL at the last price.
    await expect(first.getAttribute('data-lot')).resolves.toBe(String(OPEN_DEALS));
    await expect(first.innerText()).resolves.toMatch(/TP 64,762\.12/);
    expect(calls.map((query) => query.get('status'))).toEqual(['open']);

    await app.page
      .getByRole('button', { name: en.deals.closed.replace('{{count}}', String(CLOSED_DEALS)) })
      .click();
    await expect.poll(() => deals(app).count(), { timeout: 10_000 }).toBe(20);
    await expect(deals(app).first().getAttribute('data-lot')).resolves.toBe(
      String(CLOSED_DEALS + OPEN_DEALS),
    );
    // A loss is red, a profit green.
    await expect(deals(app).nth(2).locator('.deal__pnl .negative').first().innerText()).resolves.toBe(
      '−0.12',
    );
    await expect(deals(app).nth(0).locator('.deal__pnl .positive').first().innerText()).resolves.toBe(
      '+0.20',
    );

    await app.page.locator('.coin-deals').getByRole('button', { name: en.common.loadMore }).click();
    await expect.poll(() => deals(app).count(), { timeout: 10_000 }).toBe(40);
    // Appended, not replaced: the first page is still on top.
    await expect(deals(app).first().getAttribute('data-lot')).resolves.toBe(
      String(CLOSED_DEALS + OPEN_DEALS),
    );
    // The second page by the first one's cursor (docs/decisions.md#lists-paged-by-cursor-issue-22).
    expect(
      calls.filter((query) => query.get('status') === 'closed').map((query) => query.get('cursor')),
    ).toEqual([null, 'at-20']);

    const head = deals(app).nth(1).locator('button.deal__head');
    await expect(head.getAttribute('aria-expanded')).resolves.toBe('false');
    await head.click();
    await expect(head.getAttribute('aria-expanded')).resolves.toBe('true');
    const details = deals(app).nth(1).locator('.deal__details');
    await expect(details.innerText()).resolves.toContain(en.deals.platformFee);
    await expect(details.innerText()).resolves.toContain(en.deals.orderId);
    // Both fills, each with its exchange order number.
    await expect(details.locator('.mono').allInnerTexts()).resolves.toEqual(
      expect.arrayContaining(['8123600', '8123601']),
    );
    // The opened deal reads as well as the rest of the screen.
    await app.page.emulateMedia({ reducedMotion: 'reduce' });
    await expect(seriousViolations(app.page)).resolves.toEqual([]);
    await expect(smallTapTargets(app.page)).resolves.toEqual([]);
    await expect(headingProblems(app.page)).resolves.toEqual([]);
    await expect(cutTexts(app.page)).resolves.toEqual([]);
    await screenshot(app.page, 'coinpage/fixtures', 'deal-open');
    await head.click();
    await expect(details.count()).resolves.toBe(0);
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it('says so when a tab has no deals, and shows a failed load in place with a retry', async () => {
    const app = await signedIn();
    await app.page.route(
      (url) => url.pathname === '/portfolio/trades' && url.searchParams.get('status') === 'open',
      (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ data: [], page: 1, limit: 20, total: 0, hasMore: false, nextCursor: null }),
        }),
    );
    const recover = await failing(app.page, '/portfolio/activity');
    await openCoinPage(app);
    await app.page.getByText(en.deals.emptyOpen).waitFor();
    const error = app.page.locator('[data-state="error"]');
    await expect(error.count()).resolves.toBe(1);
    await expect(error.innerText()).resolves.toContain(en.common.loadFailed);

    await recover();
    await error.getByRole('button', { name: en.common.retry }).click();
    await app.page.locator('.activity-line').first().waitFor();
    expect(app.problems.filter((problem) => !problem.includes('status of 503'))).toEqual([]);
    await app.close();
  });
});

describe('coin page: activity log', () => {
  it('reads every entry in English, grouped by day, with the exchange message verbatim, and loads more', async () => {
    const app = await signedIn();
    await openCoinPage(app);
    const lines = app.page.locator('.activity-line');
    await lines.first().waitFor();
    await expect(lines.count()).resolves.toBe(30);
    await expect(app.page.locator('.activity-day__title').first().innerText()).resolves.toBe('Today (UTC)');
    await expect(app.page.locator('.activity-day__title').nth(1).innerText()).resolves.toBe(
      'Yesterday (UTC)',
    );
    const all = await lines.allInnerTexts();
    const text = all.join('\n');
    expect(text).toContain('Take profit of lot 4 filled: sell 0.00038 at 64,762.50');
    expect(text).toContain('Averaging buy of lot 5 rejected by the exchange');
    expect(text).toContain('Order: buy at 64,113.85');
    expect(text).toContain('Code: -2010');
    expect(text).toContain('Averaging buy of lot 5 at 64,010.00 cancelled');
    expect(text).toContain('Replaced to follow the new plan');
    expect(text).toContain(
      'Orders adopted: 2 · fills applied: 1 · unknown orders cancelled: 1 · placed: 3 · cancelled: 1',
    );
    expect(text).toContain('Entry buy of lot 1 placed: buy for 25.00 USDT at market');
    expect(text).toContain('BTC/USDT added to the portfolio');
    expect(text).toContain(en.activity.keysChanged);
    // Only what changed, old → new.
    const changed = await app.page.locator('.activity-line[data-kind="settings_changed"]').innerText();
    expect(changed).toContain('Step: 1% → 1.5%');
    expect(changed).toContain('Maximum trades: 12 → 15');
    expect(changed).not.toContain('Order size');
    await expect(app.page.locator('.activity-line__quote').innerText()).resolves.toBe(REJECTION_MESSAGE);
    expect(all.find((line) => line.startsWith('Drying mode on'))).toMatch(/Fee balance$/);
    expect(all.find((line) => line.startsWith('Trading paused'))).toMatch(/License$/);

    const log = app.page.locator('.coin-activity');
    await log.getByRole('button', { name: en.common.loadMore }).click();
    await expect.poll(() => lines.count()).toBe(53);
    await expect(log.getByRole('button', { name: en.common.loadMore }).count()).resolves.toBe(0);
    await screenshot(app.page, 'coinpage/fixtures', 'activity-en');
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it('reads the same entries in Russian, the exchange message unchanged', async () => {
    const app = await signedIn('ru');
    await navigateInApp(app.page, '/portfolio/show?coin=BTC');
    const lines = app.page.locator('.activity-line');
    await lines.first().waitFor();
    await settle(app.page);
    const text = (await lines.allInnerTexts()).join('\n');
    expect(text).toContain('Тейк-профит лота 4 исполнен: продажа 0,00038 по 64');
    expect(text).toContain('Ордер усреднения лота 5 отклонён биржей');
    expect(text).toContain(ru.activity.restart);
    expect(text).toContain(ru.activity.actor.exchange);
    await expect(app.page.locator('.activity-day__title').first().innerText()).resolves.toBe('Сегодня (UTC)');
    await expect(app.page.locator('.activity-line__quote').innerText()).resolves.toBe(REJECTION_MESSAGE);
    await screenshot(app.page, 'coinpage/fixtures', 'activity-ru');
    expect(app.problems).toEqual([]);
    await app.close();
  });
});

describe('panel: coin profit and coin rating', () => {
  it('asks for the chosen period and orders the coins by its profit', async () => {
    const app = await signedIn();
    const calls = recordCalls(app.page, '/portfolio/');
    const profit = app.page.locator('.coin-profit');
    await profit.waitFor();
    const coins = () => profit.locator('a.row .row__title').allInnerTexts();
    await expect(coins()).resolves.toEqual(['BTC', 'ETH', 'XRP']);
    await app.page
      .getByRole('group', { name: en.coinProfit.period })
      .getByRole('button', { name: 'Week' })
      .click();
    await expect.poll(() => profit.getAttribute('data-period')).toBe('week');
    expect(calls.map((query) => query.get('period'))).toContain('week');
    await expect(coins()).resolves.toEqual(['ETH', 'BTC', 'XRP']);
    await expect(profit.locator('a.row').first().locator('.row__end').innerText()).resolves.toBe('+12.05');
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it("shows the day's rating, all of it on request, an empty day, another day and a failed load", async () => {
    const app = await signedIn();
    const calls = recordCalls(app.page, '/home/coin_rating');
    const items = app.page.locator('.coin-rating__item');
    await items.first().waitFor();
    await expect(items.count()).resolves.toBe(10);
    await expect(items.first().innerText()).resolves.toMatch(/SOL[\s\S]*\+1\.25%/);
    await app.page.getByRole('button', { name: 'Show all (12)' }).click();
    await expect(items.count()).resolves.toBe(12);
    await expect(items.last().locator('.negative').innerText()).resolves.toBe('−0.12%');

    const days = app.page.getByRole('group', { name: en.coinRating.day });
    await days.getByRole('button', { name: en.coinRating.yesterday }).click();
    await app.page.getByText(en.coinRating.empty).waitFor();
    await expect(items.count()).resolves.toBe(0);

    await days.getByRole('button').nth(3).click();
    await expect.poll(() => items.count()).toBe(3);
    const third = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
    // Today's rating is the panel's own first call: sent before or after the recording began.
    const dates = calls.map((query) => query.get('date'));
    expect(dates[0] === 'today' ? dates.slice(1) : dates).toEqual(['yesterday', third]);

    const recover = await failing(app.page, '/home/coin_rating');
    await days.getByRole('button').nth(4).click();
    await app.page.locator('[data-state="error"]').waitFor();
    await recover();
    await app.page.locator('[data-state="error"]').getByRole('button', { name: en.common.retry }).click();
    await expect.poll(() => items.count()).toBe(3);
    expect(app.problems.filter((problem) => !problem.includes('status of 503'))).toEqual([]);
    await app.close();
  });
});
