import { mkdirSync } from 'node:fs';
import { type ChartRange, errorCatalogue } from '@gridbot/contracts';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/locales/en';
import { cutTexts, headingProblems, seriousViolations, smallTapTargets } from './support/a11y';
import {
  type AppPage,
  launchBrowser,
  navigateInApp,
  openAppPage,
  SCREENSHOTS_DIR,
  settle,
} from './support/browser';
import { coinChartFixture, serveFixtures } from './support/fixtures';
import { type Stack, startStack } from './support/stack';
import { THEMES, type ThemeName, withTheme } from './support/themes';

/**
 * The coin price chart (GET /portfolio/chart) on the coin page and the panel, with sample answers:
 * a canvas drawn with the fills as markers and the ladder as lines, the range switch asking again,
 * a failed call shown in place, the panel's coin chooser. Screenshots: artifacts/screenshots/chart/.
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

type ChartAnswer = (query: URLSearchParams) => { status: number; body: unknown };

const sample: ChartAnswer = (query) => ({
  status: 200,
  body: coinChartFixture(query.get('coin') ?? 'BTC', (query.get('range') ?? '1d') as ChartRange),
});

const failure: ChartAnswer = () => ({
  status: 502,
  body: {
    error: true,
    status: 502,
    code: 'EXCHANGE_UNAVAILABLE',
    message: errorCatalogue.EXCHANGE_UNAVAILABLE.message,
    detail: 'The exchange does not answer right now.',
  },
});

/**
 * A signed-in user whose screens answer from the fixtures, the chart from `answer` (switchable);
 * every chart call is recorded.
 */
const signedIn = async (options: { theme?: ThemeName; fixtures?: boolean } = {}) => {
  users += 1;
  const user = await stack.createUser({ username: `chart_${users}`, firstName: 'Maria' });
  const theme = THEMES[options.theme ?? 'dark'];
  const app = await openAppPage(browser, { theme });
  await app.page.emulateMedia({ reducedMotion: 'reduce' });
  const calls: URLSearchParams[] = [];
  const chart = { answer: sample };
  if (options.fixtures !== false) {
    await serveFixtures(app.page);
    await app.page.route(
      (url) => url.pathname === '/portfolio/chart',
      (route) => {
        const query = new URL(route.request().url()).searchParams;
        calls.push(query);
        const { status, body } = chart.answer(query);
        return route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });
      },
    );
  }
  await app.page.goto(withTheme(stack.launchUrlFor(user), theme));
  await app.page.locator('nav.tabbar').waitFor();
  return { app, calls, chart };
};

const card = (page: Page) => page.locator('[data-testid="coin-chart"]');
const canvasHost = (page: Page) => page.locator('[data-testid="price-chart"]');

/** Waits for the drawn chart and returns its data counts and how many pixels its canvases painted. */
const drawnChart = async (page: Page) => {
  await canvasHost(page).locator('canvas').first().waitFor();
  await settle(page);
  return canvasHost(page).evaluate((host) => {
    let painted = 0;
    for (const canvas of host.querySelectorAll('canvas')) {
      const context = canvas.getContext('2d');
      if (!context || canvas.width === 0 || canvas.height === 0) continue;
      const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) painted += 1;
    }
    const data = (host as HTMLElement).dataset;
    return {
      candles: Number(data.candles),
      markers: Number(data.markers),
      lines: Number(data.lines),
      canvases: host.querySelectorAll('canvas').length,
      painted,
      width: host.getBoundingClientRect().width,
    };
  });
};

const openCoinPage = async (app: AppPage) => {
  await navigateInApp(app.page, '/portfolio/show?coin=BTC');
  await card(app.page).waitFor();
};

/** The whole screen in one picture from the top, or scrolled to the chart. */
const capture = async (page: Page, name: string) => {
  const dir = `${SCREENSHOTS_DIR}/chart`;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png` });
};

/** The language chosen on the profile screen, as a user does (a11y.e2e.test.ts does the same). */
const chooseLanguage = async (app: AppPage, language: string) => {
  await navigateInApp(app.page, '/profile');
  await app.page.locator(`button[data-language="${language}"]`).click();
  await app.page.waitForFunction(
    (lang) => document.documentElement.lang.startsWith(lang === 'cn' ? 'zh' : lang),
    language,
  );
  await app.page.waitForFunction(() => !document.querySelector('.toast'), undefined, { timeout: 10_000 });
  await navigateInApp(app.page, '/');
};

/** axe's serious violations, small tap targets, heading order and cut text, by kind (empty when none). */
const a11yProblems = async (page: Page) => {
  const problems = {
    axe: await seriousViolations(page),
    tapTargets: await smallTapTargets(page),
    headings: await headingProblems(page),
    cut: await cutTexts(page),
  };
  return Object.fromEntries(Object.entries(problems).filter(([, list]) => list.length > 0));
};

describe('coin price chart', () => {
  it('draws the candles on a canvas with the fills as markers and the ladder as lines, and refreshes', async () => {
    const { app, calls } = await signedIn();
    await openCoinPage(app);
    const drawn = await drawnChart(app.page);
    expect(drawn).toMatchObject({ candles: 288, markers: 3, lines: 3 });
    expect(drawn.canvases).toBeGreaterThan(0);
    expect(drawn.painted).toBeGreaterThan(1000);
    expect(drawn.width).toBeGreaterThan(300);
    expect(calls.map((q) => [q.get('coin'), q.get('range')])).toEqual([['BTC', '1d']]);
    // The legend names what the markers and lines are; the licence's link is there.
    const legend = await card(app.page).locator('.price-chart__legend').innerText();
    for (const text of ['Buys', 'Sells', 'Next buy', 'Take profits']) expect(legend).toContain(text);
    await expect(card(app.page).locator('a[href="https://www.tradingview.com/"]').count()).resolves.toBe(1);
    // The chart is below the hero, above the mode switch.
    const order = await app.page.evaluate(() => {
      const hero = document.querySelector('.hero')?.getBoundingClientRect().top ?? -1;
      const chart = document.querySelector('[data-testid="coin-chart"]')?.getBoundingClientRect().top ?? -1;
      return chart > hero;
    });
    expect(order).toBe(true);
    // Refreshed every 15 s while on screen.
    await expect.poll(() => calls.length, { timeout: 25_000, interval: 500 }).toBeGreaterThanOrEqual(2);
    expect(calls[1]?.get('range')).toBe('1d');
    expect(app.problems).toEqual([]);
    await app.close();
  }, 60_000);

  it('draws the orders that are not on the exchange in the hint colour, labelled, and says so in the legend', async () => {
    const { app, chart } = await signedIn();
    // The second take profit went missing from the exchange (docs/grid.md#on-the-exchange).
    chart.answer = (query) => {
      const body = coinChartFixture(query.get('coin') ?? 'BTC', (query.get('range') ?? '1d') as ChartRange);
      const missing = { state: 'missing' as const, since: null, refusal: null };
      const takeProfits = body.ladder.takeProfits.map((tp, index) =>
        index === 1 ? { ...tp, onBook: missing } : tp,
      );
      return { status: 200, body: { ...body, ladder: { ...body.ladder, takeProfits } } };
    };
    await openCoinPage(app);
    await expect.poll(async () => (await drawnChart(app.page)).lines).toBe(3);
    await expect(canvasHost(app.page).getAttribute('data-off-book-lines')).resolves.toBe('1');
    const legend = await card(app.page).locator('.price-chart__legend').innerText();
    expect(legend).toContain(en.chart.offBook);
    await card(app.page).scrollIntoViewIfNeeded();
    await settle(app.page);
    await capture(app.page, 'coin-chart-off-book');
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it('asks again for the range switched to, and draws it', async () => {
    const { app, calls } = await signedIn();
    await openCoinPage(app);
    await drawnChart(app.page);
    await card(app.page).getByRole('button', { name: '7 days' }).click();
    await expect
      .poll(() => calls.map((q) => q.get('range')), { timeout: 10_000 })
      .toEqual(expect.arrayContaining(['1d', '7d']));
    await card(app.page).and(app.page.locator('[data-range="7d"]')).waitFor();
    await expect.poll(async () => (await drawnChart(app.page)).candles, { timeout: 10_000 }).toBe(168);
    await expect(
      card(app.page).getByRole('button', { name: '7 days' }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    await card(app.page).getByRole('button', { name: '30 days' }).click();
    await expect.poll(async () => (await drawnChart(app.page)).candles, { timeout: 10_000 }).toBe(180);
    // Back to the day for the next tests (the range is kept for the session).
    await card(app.page).getByRole('button', { name: '24h' }).click();
    await expect.poll(async () => (await drawnChart(app.page)).candles, { timeout: 10_000 }).toBe(288);
    expect(app.problems).toEqual([]);
    await app.close();
  }, 60_000);

  it('shows a failed call in place, the rest of the coin page intact, and recovers on retry', async () => {
    const { app, chart } = await signedIn();
    chart.answer = failure;
    await openCoinPage(app);
    const error = card(app.page).locator('[data-state="error"]');
    await error.waitFor();
    // The client's own text for the catalogue code, in the user's language.
    await expect(error.innerText()).resolves.toContain('The exchange did not answer.');
    await expect(canvasHost(app.page).count()).resolves.toBe(0);
    await expect(app.page.locator('.hero').isVisible()).resolves.toBe(true);
    chart.answer = sample;
    await error.getByRole('button', { name: 'Try again' }).click();
    expect((await drawnChart(app.page)).markers).toBe(3);
    expect(app.problems).toEqual([]);
    await app.close();
  }, 60_000);

  it('shows a chart chunk that failed to load in place, and loads it on retry (a reload)', async () => {
    const { app } = await signedIn();
    const chunk = '**/assets/price-chart-*.js';
    await app.page.route(chunk, (route) => route.abort('connectionfailed'));
    await openCoinPage(app);
    const error = card(app.page).locator('[data-state="error"]');
    await error.waitFor();
    await expect(app.page.locator('.hero').isVisible()).resolves.toBe(true);
    await app.page.unroute(chunk);
    await Promise.all([
      app.page.waitForEvent('load'),
      error.getByRole('button', { name: 'Try again' }).click(),
    ]);
    expect((await drawnChart(app.page)).markers).toBe(3);
    // What the browser and React report about the failed chunk, and nothing else.
    expect(
      app.problems.filter(
        (problem) => !/price-chart|dynamically imported module|ERR_CONNECTION_FAILED/.test(problem),
      ),
    ).toEqual([]);
    await app.close();
  }, 60_000);

  it("shows the panel's chart once scrolled to, for the first coin, and switches coins", async () => {
    const { app, calls } = await signedIn();
    await card(app.page).waitFor();
    await settle(app.page);
    // Below the fold the chart asks for nothing: the first screen never waits for it.
    expect(calls).toEqual([]);
    await card(app.page).scrollIntoViewIfNeeded();
    await expect.poll(() => calls.map((q) => q.get('coin'))).toEqual(['BTC']);
    expect((await drawnChart(app.page)).lines).toBe(3);
    const chooser = card(app.page).getByRole('group', { name: 'Coin' });
    await expect(chooser.getByRole('button').allInnerTexts()).resolves.toEqual(['BTC', 'ETH', 'XRP']);
    await expect(chooser.getByRole('button', { name: 'BTC' }).getAttribute('aria-pressed')).resolves.toBe(
      'true',
    );
    await chooser.getByRole('button', { name: 'ETH' }).click();
    await expect.poll(() => calls.map((q) => q.get('coin')), { timeout: 10_000 }).toContain('ETH');
    await card(app.page).and(app.page.locator('[data-coin="ETH"]')).waitFor();
    await expect(card(app.page).locator('.card__title').innerText()).resolves.toBe('Price of ETH');
    expect((await drawnChart(app.page)).candles).toBe(288);
    expect(app.problems).toEqual([]);
    await app.close();
  }, 60_000);

  it('has no chart on the panel of a user without coins', async () => {
    const { app } = await signedIn({ fixtures: false });
    await app.page.getByText('No coins yet').waitFor();
    await settle(app.page);
    await expect(card(app.page).count()).resolves.toBe(0);
    expect(app.problems).toEqual([]);
    await app.close();
  });

  it.each([
    ['light', 'en'],
    ['dark', 'en'],
    ['dark', 'ru'],
    ['light', 'cn'],
  ] as const)(
    'is readable at 390 px in the %s theme, %s (screenshots of the coin page and the panel)',
    async (theme, language) => {
      const { app } = await signedIn({ theme });
      if (language !== 'en') await chooseLanguage(app, language);
      await card(app.page).scrollIntoViewIfNeeded();
      await drawnChart(app.page);
      await card(app.page).evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await capture(app.page, `panel-${theme}-${language}`);
      const findings: Record<string, unknown> = { panel: await a11yProblems(app.page) };
      await openCoinPage(app);
      await drawnChart(app.page);
      await app.page.evaluate(() => window.scrollTo(0, 0));
      await capture(app.page, `coin-${theme}-${language}`);
      findings.coin = await a11yProblems(app.page);
      // The checks of a11y.e2e.test.ts, on the screens with the chart drawn.
      expect(findings).toEqual({ panel: {}, coin: {} });
      // Text in the card keeps its contrast with the card (the theme's colours, not fixed ones).
      const colors = await card(app.page).evaluate((element) => ({
        text: getComputedStyle(element.querySelector('.price-chart__legend')!).color,
        card: getComputedStyle(element).backgroundColor,
      }));
      expect(colors.text).not.toBe(colors.card);
      expect(app.problems).toEqual([]);
      await app.close();
    },
    60_000,
  );
});
