import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_LIST } from '../src/router/route-table';
import { cutTexts, headingProblems, seriousViolations, smallTapTargets, zoomBlockers } from './support/a11y';
import {
  launchBrowser,
  navigateInApp,
  openAppPage,
  SCREENSHOTS_DIR,
  screenUrlOf,
  settle,
  VIEWPORT,
} from './support/browser';
import { serveFixtures } from './support/fixtures';
import { type Stack, startStack } from './support/stack';
import { THEMES, type ThemeName, withTheme } from './support/themes';

/**
 * Every screen, in Telegram's light and dark themes and in en/ru/cn, with sample data on screen:
 * axe-core's WCAG 2 A/AA rules (no serious or critical violation: contrast ≥ 4.5:1, names,
 * names…), zoom allowed, tap targets of at least 44 px, one h1 and no skipped heading level, no text
 * cut. Full-page screenshots go to artifacts/screenshots/<theme>/<lang>/ (apps/web/README.md#colours-and-contrast).
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

/**
 * The whole screen in one picture, the tab bar at its foot: the window is made as tall as the
 * content (a full-page capture would paint the fixed tab bar over the middle).
 */
const screenshotWhole = async (page: Page, path: string) => {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: VIEWPORT.width, height: Math.max(height, VIEWPORT.height) });
  await page.screenshot({ path });
  await page.setViewportSize(VIEWPORT);
};

/** `A11Y_SCREENS=panel,token` checks only those screens (route names), e.g. while working on them. */
const ONLY = process.env.A11Y_SCREENS?.split(',');
const SCREENS = ROUTE_LIST.filter((route) => !route.hidden && (!ONLY || ONLY.includes(route.name)));

/**
 * Each language with sample data and as the API answers today (en), in the light theme; the dark
 * theme in English with and without data. A theme changes colours only (contrast is what axe checks
 * per theme), a language the texts (cut text, wrapping): the dark theme in ru and cn would repeat
 * the light theme's findings.
 */
const CASES = [
  ...(['en', 'ru', 'cn'] as const).map((language) => ['light', language, true] as const),
  ['light', 'en', false] as const,
  ['dark', 'en', true] as const,
  ['dark', 'en', false] as const,
];

describe('accessibility of every screen', () => {
  it.each(CASES)(
    '%s theme, %s (sample data: %s): no serious axe violation, 44 px targets, ordered headings, no cut text',
    async (themeName: ThemeName, language, fixtures) => {
      users += 1;
      const theme = THEMES[themeName];
      const user = await stack.createUser({
        username: `ada_${users}`,
        firstName: 'Ada',
        lastName: 'Lovelace',
      });
      const app = await openAppPage(browser, { theme });
      // Transitions finish at once: a colour caught mid-transition is not the colour a user reads.
      await app.page.emulateMedia({ reducedMotion: 'reduce' });
      if (fixtures) await serveFixtures(app.page);
      await app.page.goto(withTheme(stack.launchUrlFor(user), theme));
      await app.page.locator('nav.tabbar').waitFor();
      await navigateInApp(app.page, '/profile');
      await app.page.locator(`button[data-language="${language}"]`).click();
      await app.page.waitForFunction(
        (lang) => document.documentElement.lang.startsWith(lang === 'cn' ? 'zh' : lang),
        language,
      );
      await app.page.waitForFunction(() => !document.querySelector('.toast'), undefined, { timeout: 10_000 });
      const dir = `${SCREENSHOTS_DIR}/${themeName}/${language}${fixtures ? '' : '/no-data'}`;
      mkdirSync(dir, { recursive: true });
      const findings: Record<string, unknown> = {};
      await expect(zoomBlockers(app.page), 'the viewport lets the reader zoom').resolves.toEqual([]);
      for (const route of SCREENS) {
        // The previous screen's h1 is marked so the wait is for the new screen's own.
        await app.page.evaluate(() => {
          for (const heading of document.querySelectorAll('h1')) heading.dataset.previous = '';
        });
        await navigateInApp(app.page, screenUrlOf(route.path));
        await app.page.locator('h1:not([data-previous])').first().waitFor();
        await settle(app.page);
        await app.page.evaluate(() => window.scrollTo(0, 0));
        const text = await app.page.locator('body').innerText();
        expect(text, route.path).not.toMatch(/undefined|NaN|\[object Object\]|null/);
        const problems = {
          axe: await seriousViolations(app.page),
          tapTargets: await smallTapTargets(app.page),
          headings: await headingProblems(app.page),
          cut: await cutTexts(app.page),
        };
        const found = Object.fromEntries(Object.entries(problems).filter(([, list]) => list.length > 0));
        if (Object.keys(found).length > 0) findings[route.name] = found;
        await screenshotWhole(app.page, `${dir}/${route.name}.png`);
      }
      expect(findings).toEqual({});
      expect(app.problems).toEqual([]);
      await app.close();
    },
    300_000,
  );
});
