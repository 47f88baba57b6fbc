import { type ErrorCode, errorCatalogue } from '@gridbot/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cn } from '../src/i18n/locales/cn';
import { en } from '../src/i18n/locales/en';
import { ru } from '../src/i18n/locales/ru';
import { type AppPage, launchBrowser, openAppPage, screenshot, settle } from './support/browser';
import { type Stack, startStack } from './support/stack';

let stack: Stack;
let browser: Browser;

/** This installation's support contact: the app shows SUPPORT_URL, not a link of its own. */
const SUPPORT_URL = 'https://t.me/e2e_support_desk';

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ env: { SUPPORT_URL } }), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const texts = { en, ru, cn } as const;
type Language = keyof typeof texts;

/** The modal's text and the text that replaces the routed view. */
const failureShown = async (app: AppPage) => {
  const modal = app.page.getByRole('alertdialog');
  await modal.waitFor();
  await app.page.getByTestId('session-invalid').waitFor();
  return {
    modal: await app.page.getByTestId('error-text').innerText(),
    page: await app.page.getByTestId('session-invalid').innerText(),
  };
};

/** Refusals the server names by catalogue code show the catalogue's text; the rest, the client's. */
const failureText = (language: Language, failure: ErrorCode | 'sessionInvalid' | 'maintenance') => {
  if (failure === 'sessionInvalid') return texts[language].session.invalid;
  if (failure === 'maintenance') return texts[language].login.failure.maintenance;
  return errorCatalogue[failure].detail[language];
};

const expectFailure = async (
  app: AppPage,
  language: Language,
  failure: ErrorCode | 'sessionInvalid' | 'maintenance',
) => {
  const shown = await failureShown(app);
  expect(shown.modal).toBe(failureText(language, failure));
  expect(shown.page).toBe(texts[language].session.invalid);
  expect(await app.page.locator('nav.tabbar').count()).toBe(0);
};

describe('login failures (docs/errors.md)', () => {
  it('"No User": registered users only, with the support link', async () => {
    const app = await openAppPage(browser);
    await app.page.goto(stack.launchUrlFor(stack.stranger('new_face'), { languageCode: 'ru' }));
    await expectFailure(app, 'ru', 'NO_USER');
    const support = app.page.getByRole('link', { name: ru.login.supportLink });
    await expect(support.getAttribute('href')).resolves.toBe(SUPPORT_URL);
    await settle(app.page);
    await screenshot(app.page, 'ru', 'login-failure-no-user');
    await app.close();
  });

  it('"No User" in English too', async () => {
    const app = await openAppPage(browser);
    await app.page.goto(stack.launchUrlFor(stack.stranger('new_face_en'), { languageCode: 'en' }));
    await expectFailure(app, 'en', 'NO_USER');
    await settle(app.page);
    await screenshot(app.page, 'en', 'login-failure-no-user');
    await app.close();
  });

  it('"No Nickname": set a username in Telegram', async () => {
    const user = await stack.createUser({ username: 'will_lose_it' });
    const app = await openAppPage(browser);
    await app.page.goto(stack.launchUrlFor({ ...user, username: '' }, { languageCode: 'ru' }));
    await expectFailure(app, 'ru', 'NO_NICKNAME');
    await app.close();
  });

  it('"No Nickname in DB": the username belongs to another account', async () => {
    const holder = await stack.createUser({ username: 'taken_name' });
    const app = await openAppPage(browser);
    await app.page.goto(
      stack.launchUrlFor(stack.stranger(holder.username), { languageCode: 'cn', startParam: 'ref_root' }),
    );
    await expectFailure(app, 'cn', 'NO_NICKNAME_IN_DB');
    await settle(app.page);
    await screenshot(app.page, 'cn', 'login-failure-no-nickname-in-db');
    await app.close();
  });

  it('launch data with a bad signature: the session is invalid', async () => {
    const user = await stack.createUser({ username: 'forged_one' });
    const app = await openAppPage(browser);
    await app.page.goto(stack.launchUrlFor(user, { languageCode: 'ru', botToken: '42:not-the-bot-token' }));
    await expectFailure(app, 'ru', 'sessionInvalid');
    await app.close();
  });

  it('any other failure: maintenance', async () => {
    const user = await stack.createUser({ username: 'during_works' });
    const app = await openAppPage(browser);
    await app.page.route('**/auth/login', (route) =>
      route.fulfill({ status: 503, contentType: 'text/plain', body: 'Service Unavailable' }),
    );
    await app.page.goto(stack.launchUrlFor(user, { languageCode: 'ru' }));
    await expectFailure(app, 'ru', 'maintenance');
    await app.close();
  });

  it('no launch data and no demo: initData is missing', async () => {
    const app = await openAppPage(browser, { locale: 'ru-RU', telegram: false });
    const demo = app.page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/demo/launch-data',
    );
    await app.page.goto(stack.baseUrl);
    expect((await demo).status()).toBe(404);
    await expectFailure(app, 'ru', 'INIT_DATA_MISSING');
    await settle(app.page);
    await screenshot(app.page, 'ru', 'login-failure-init-data-missing');
    await app.close();
  });
});
