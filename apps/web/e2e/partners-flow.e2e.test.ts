import { mkdirSync } from 'node:fs';
import { errorCatalogue } from '@gridbot/contracts';
import type { User } from '@gridbot/db';
import { openAccounts, SYSTEM_ACCOUNTS, toMicro, transfer, userAccountCode } from '@gridbot/ledger';
import {
  accrueMatchingBonus,
  DEMO_TEAM,
  fundWallet,
  getNotificationSettings,
  grantLicense,
  payMatchingBonuses,
  seedDemoTeam,
} from '@gridbot/services';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cn } from '../src/i18n/locales/cn';
import { en } from '../src/i18n/locales/en';
import { ru } from '../src/i18n/locales/ru';
import { cutTexts, seriousViolations, smallTapTargets } from './support/a11y';
import {
  launchBrowser,
  navigateInApp,
  openAppPage,
  SCREENSHOTS_DIR,
  settle,
  VIEWPORT,
} from './support/browser';
import { type Stack, startStack } from './support/stack';
import { THEMES, withTheme } from './support/themes';

// The partner programme and the licence from the mini app, against the real API and the books:
// the demo team (docs/bonuses.md#demo-team: 24 partners in three generations, their licences
// bought through the licence service) seeded under a user holding PRO1 as the demo's does (only a
// paid licence earns bonuses: docs/bonuses.md#who-earns), every partner screen's figures traced
// to the ledger or to the API's own answer, the tree opened, a partner's profile, load more; then
// the user's own licence upgraded (money leaving the main balance), a refusal for want of money
// shown in place with nothing changed, and a renewal inside its window; then every partner and
// profile screen in each language (and the dark theme in English).
let stack: Stack;
let browser: Browser;
let demo: User;
let team: User[];

const DAY_MS = 86_400_000;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ demo: true }), launchBrowser()]);
  demo = stack.demoUser as User;
  await grantLicense(stack.ctx, { userId: demo.id, level: 'PRO1' });
  team = await seedDemoTeam(stack.ctx, demo);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** `1234.5` USDT as the English screens show it: `1,234.50 USDT` (micro-USDT in, no float). */
const usdtText = (micro: bigint) => {
  const cents = micro / 10_000n;
  return `${(cents / 100n).toLocaleString('en-US')}.${String(cents % 100n).padStart(2, '0')} USDT`;
};

/** What the ledger booked to a user's main balance under one transfer type (credits and debits). */
const mainEntries = async (
  userIds: number[],
  type: 'referral_bonus' | 'license_purchase' | 'matching_bonus',
  since?: Date,
) => {
  const entries = await stack.prisma.ledgerEntry.findMany({
    where: {
      account: { code: { in: userIds.map((id) => userAccountCode(id, 'main')) } },
      transfer: { type, ...(since ? { createdAt: { gte: since } } : {}) },
    },
    select: { amount: true },
  });
  return entries.reduce((sum, entry) => sum + entry.amount, 0n);
};

/** A trading fee as the engine books it when a lot closes (grid/trade-fee.ts), with its accruals. */
const bookTradeFee = (partner: User, fee: string, at: Date, key: string) =>
  stack.prisma.$transaction(async (tx) => {
    const account = userAccountCode(partner.id, 'fee');
    await openAccounts(tx, [account, SYSTEM_ACCOUNTS.fees]);
    const charged = await transfer(tx, {
      idempotencyKey: key,
      type: 'trade_fee',
      memo: { coin: 'ETH', symbol: 'ETH/USDT', e2e: true },
      legs: [
        { account, amount: -toMicro(fee) },
        { account: SYSTEM_ACCOUNTS.fees, amount: toMicro(fee) },
      ],
    });
    await accrueMatchingBonus(tx, {
      feeTransferId: charged.id,
      partnerId: partner.id,
      fee: toMicro(fee),
      at,
    });
  });

const mainBalance = async (userId: number) =>
  (await stack.prisma.ledgerAccount.findUniqueOrThrow({ where: { code: userAccountCode(userId, 'main') } }))
    .balance;

/** A demo-team member's line below the demo user (1 = invited by them). */
const depthOf = (username: string): number => {
  const sponsor = DEMO_TEAM.find((partner) => partner.username === username)?.sponsor ?? 'demo';
  return sponsor === 'demo' ? 1 : 1 + depthOf(sponsor);
};
const lineCount = (line: number) => DEMO_TEAM.filter((partner) => depthOf(partner.username) === line).length;

/** The partners below a demo-team member, every depth. */
const downlineOf = (username: string): string[] =>
  DEMO_TEAM.filter((partner) => partner.sponsor === username).flatMap((partner) => [
    partner.username,
    ...downlineOf(partner.username),
  ]);

const expectAccessible = async (page: Page, where: string) => {
  const problems = {
    axe: await seriousViolations(page),
    tapTargets: await smallTapTargets(page),
    cut: await cutTexts(page),
  };
  expect(Object.fromEntries(Object.entries(problems).filter(([, list]) => list.length > 0)), where).toEqual(
    {},
  );
};

/** The screen as tall as its content (the wallet flow's way). */
const screenshotWhole = async (page: Page, dir: string, name: string) => {
  mkdirSync(dir, { recursive: true });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: VIEWPORT.width, height: Math.max(height, VIEWPORT.height) });
  await page.screenshot({ path: `${dir}/${name}.png` });
  await page.setViewportSize(VIEWPORT);
};

const apiAnswer = (page: Page, path: string) =>
  page.waitForResponse((response: Response) => new URL(response.url()).pathname === path && response.ok());

/**
 * What of the network expansion's qualification line runs off the right edge of its card or of the
 * screen (words that do not wrap), evaluated in the page.
 */
const overflowing = () => {
  const line = document.querySelector('[data-testid="expansion-status"]');
  const card = line?.parentElement?.getBoundingClientRect();
  if (!line || !card) return ['no qualification line'];
  const right = Math.min(card.right, window.innerWidth) + 0.5;
  return [line, ...line.querySelectorAll('*')]
    .filter((element) => element.getBoundingClientRect().right > right)
    .map((element) => `${element.className}: ${element.textContent?.slice(0, 40)}`);
};

describe('the partner programme from the mini app', () => {
  it("shows the demo team's figures as the books have them", async () => {
    const app = await openAppPage(browser, { telegram: false });
    const { page } = app;
    await page.goto(stack.launchUrlFor(demo, {}, '/partners'));

    // Partners home: rewards = the referral_bonus lines of the user's main balance (429 USDT:
    // 30 % of line 1's 1,100, 8 % of line 2's 800, 5 % of line 3's 700).
    const referralTotal = await mainEntries([demo.id], 'referral_bonus');
    expect(referralTotal).toBe(429_000_000n);
    await page.getByTestId('rewards-total').waitFor();
    await expect(page.getByTestId('rewards-total').innerText()).resolves.toBe(usdtText(referralTotal));
    await expect(page.getByTestId('rewards-today').innerText()).resolves.toBe(usdtText(referralTotal));
    await expect(page.getByTestId('rewards-month').innerText()).resolves.toBe(usdtText(referralTotal));
    for (const line of [1, 2, 3])
      await expect(page.getByTestId(`team-line${line}`).innerText()).resolves.toBe(String(lineCount(line)));
    await expect(page.getByTestId('team-total').innerText()).resolves.toBe(String(team.length));
    // Team volume of the month = the team's license_purchase debits this month (2,600 USDT).
    const now = new Date();
    const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const teamVolume = -(await mainEntries(
      team.map((user) => user.id),
      'license_purchase',
      monthStart,
    ));
    const measure = (key: string) =>
      page.getByTestId('measures').locator(`[data-measure="${key}"]`).innerText();
    await expect(measure('teamVolume')).resolves.toBe(usdtText(teamVolume));
    const referralLink = await page.getByTestId('referral-link').innerText();
    expect(referralLink).toMatch(new RegExp(`^https://t\\.me/.+\\?startapp=ref_${demo.referralCode}$`));
    const share = new URL((await page.getByTestId('share-invite').getAttribute('href')) ?? '');
    expect(`${share.origin}${share.pathname}`).toBe('https://t.me/share/url');
    expect(share.searchParams.get('url')).toBe(referralLink);
    await settle(page);
    await expectAccessible(page, 'partners');
    // A clipboard the browser refuses is said in place of the copy (docs/errors.md#client-texts).
    await page.evaluate(() => {
      navigator.clipboard.writeText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
    });
    await page.getByRole('button', { name: en.partners.copyLink }).click();
    await page.getByText(en.errors.clipboard).waitFor();

    // My rewards (today by default) and the referral bonus page: the same 429 USDT, by day.
    await navigateInApp(page, '/partners/my-rewards');
    await page.locator('[data-kind="referral"]').waitFor();
    await expect(page.getByTestId('rewards-period-total').innerText()).resolves.toBe(usdtText(referralTotal));
    await navigateInApp(page, '/partners/my-rewards/referal-bonus');
    const detail = page.getByTestId('bonus-detail');
    await detail.waitFor();
    await expect(page.getByTestId('detail-total').innerText()).resolves.toBe(usdtText(referralTotal));
    // A row per licence payment of lines 1–3 (the team is three generations deep: every paying
    // partner), under the day's total.
    const shares = await stack.prisma.referralBonus.count({ where: { uplineId: demo.id } });
    expect(shares).toBe(DEMO_TEAM.filter((partner) => partner.level !== 'FREE').length);
    await expect(detail.locator('.row').count()).resolves.toBe(shares + 1);
    await expect(page.getByTestId('history-total').innerText()).resolves.toContain(usdtText(referralTotal));
    await expect(page.getByTestId('bonus-history').locator('[data-date]').count()).resolves.toBe(1);
    await settle(page);
    await expectAccessible(page, 'referral bonus');

    // Network expansion: the page shows what the API answered.
    const expansionAnswer = apiAnswer(page, '/partners/network_expansion/detail');
    await navigateInApp(page, '/partners/my-rewards/network-expansion-bonus');
    const expansion = (await (await expansionAnswer).json()) as {
      pool: string;
      qualifyingPartners: number;
      requiredPartners: number;
      registrations: unknown[];
    };
    await page.getByTestId('expansion-pool').waitFor();
    await expect(page.getByTestId('expansion-pool').innerText()).resolves.toBe(
      usdtText(toMicro(expansion.pool)),
    );
    await expect(page.getByTestId('expansion-progress').innerText()).resolves.toBe(
      `Qualifying partners: ${expansion.qualifyingPartners} of ${expansion.requiredPartners}`,
    );
    await page.getByText(en.expansion.ranking_other.slice(0, 40)).waitFor();
    await expect(
      page.getByTestId('expansion-registrations').locator('[data-qualifying]').count(),
    ).resolves.toBe(expansion.registrations.length);

    // My partners: this month's 24, ten at a time, newest first; a partner opens their profile.
    await navigateInApp(page, '/partners/my-partners');
    const rows = page.getByTestId('partner-list').locator('[data-partner]');
    await rows.first().waitFor();
    await expect(page.getByTestId('partners-total').innerText()).resolves.toBe(String(team.length));
    await expect(rows.count()).resolves.toBe(10);
    const newest = [...DEMO_TEAM].sort((a, b) => a.daysAgo - b.daysAgo)[0];
    await expect(rows.first().innerText()).resolves.toContain(`@${newest?.username}`);
    await page.getByRole('button', { name: en.common.loadMore }).click();
    await expect.poll(() => rows.count()).toBe(20);
    await page.getByRole('button', { name: en.common.loadMore }).click();
    await expect.poll(() => rows.count()).toBe(team.length);
    await expect(page.getByRole('button', { name: en.common.loadMore }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: en.partners.line.replace('{{line}}', '1'), exact: true }).click();
    await expect.poll(() => rows.count()).toBe(lineCount(1));
    const maria = team.find((user) => user.username === 'maria_grid') as User;
    await page.locator(`[data-partner="${maria.uid}"] button`).click();
    const profile = page.getByTestId('partner-profile');
    await profile.getByTestId('partner-team').waitFor();
    await expect(profile.getByTestId('partner-direct').innerText()).resolves.toBe(
      String(DEMO_TEAM.filter((partner) => partner.sponsor === 'maria_grid').length),
    );
    await expect(profile.getByTestId('partner-team').innerText()).resolves.toBe(
      String(downlineOf('maria_grid').length),
    );
    await expect(profile.innerText()).resolves.toContain('@maria_grid');
    await settle(page);
    await expectAccessible(page, 'partner profile');
    await profile.getByRole('button', { name: en.common.close }).click();
    await profile.waitFor({ state: 'detached' });

    // Structure: line 1, a node's partners loaded when opened and kept when opened again.
    let treeCalls = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/partners/my_partners/structure') treeCalls += 1;
    });
    await navigateInApp(page, '/partners/my-partners/structure');
    await page.locator(`[data-node="${maria.uid}"]`).waitFor();
    await expect(page.locator('.card > ul.tree > li').count()).resolves.toBe(lineCount(1));
    const mariaNode = page.locator(`[data-node="${maria.uid}"]`);
    await mariaNode.locator('.tree__toggle').first().click();
    const anna = team.find((user) => user.username === 'anna_ladder') as User;
    await page.locator(`[data-node="${anna.uid}"]`).waitFor();
    await expect(mariaNode.locator(':scope > ul.tree > li').count()).resolves.toBe(3);
    await page.locator(`[data-node="${anna.uid}"] .tree__toggle`).first().click();
    await page.locator(`[data-node="${anna.uid}"] > ul.tree > li`).first().waitFor();
    await expect(page.locator(`[data-node="${anna.uid}"]`).getAttribute('data-line')).resolves.toBe('2');
    const callsAfterOpening = treeCalls;
    await mariaNode.locator('.tree__toggle').first().click();
    await mariaNode.locator('.tree__toggle').first().click();
    await page.locator(`[data-node="${anna.uid}"]`).waitFor();
    expect(treeCalls).toBe(callsAfterOpening);
    await settle(page);
    await expectAccessible(page, 'structure opened');
    await screenshotWhole(page, `${SCREENSHOTS_DIR}/en`, 'real-partners-structure-opened');

    expect(app.problems).toEqual([]);
    await app.close();
  }, 120_000);

  it('upgrades the licence from the profile, refuses what the balance cannot pay, renews in the window', async () => {
    // The team's referral bonus (429 USDT) is on the main balance already; 200 more.
    const bonus = await mainBalance(demo.id);
    await fundWallet(stack.prisma, { userId: demo.id, deposit: '210', fee: '10', key: 'e2e:partners:demo' });
    const funded = bonus + 200_000_000n;
    expect(await mainBalance(demo.id)).toBe(funded);
    const app = await openAppPage(browser, { telegram: false });
    const { page } = app;
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    // The wallet answers one call per 2 s per user (docs/product.md#limits): its screen waits for
    // the window after the first load's call, as a person reading the profile would.
    let walletAt = 0;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/wallet') walletAt = Date.now();
    });
    const walletWindow = () =>
      new Promise((resolve) => setTimeout(resolve, Math.max(0, walletAt + 2100 - Date.now())));
    await page.goto(stack.launchUrlFor(demo, {}, '/profile'));
    const level = page.getByTestId('license-level');
    await level.waitFor();
    await expect(level.innerText()).resolves.toContain('PRO1');

    // Upgrade PRO1 → PRO2: the price difference, confirmed with the price, from the main balance.
    await page.locator('[data-offer="PRO2"]').click();
    await page.locator('[data-action="main"]').click();
    await expect.poll(() => level.innerText()).toContain('PRO2');
    expect(dialogs.at(-1)).toBe('Upgrade to PRO2 for 200.00 USDT from your main balance?');
    const afterUpgrade = funded - 200_000_000n;
    expect(await mainBalance(demo.id)).toBe(afterUpgrade);
    expect(await mainEntries([demo.id], 'license_purchase')).toBe(-200_000_000n);
    const until = (await stack.prisma.user.findUniqueOrThrow({ where: { id: demo.id } }))
      .licenseActiveUntil as Date;
    // Outside the window: when renewal opens, not a button.
    await expect(page.getByTestId('renewal-opens').innerText()).resolves.toContain(
      new Intl.DateTimeFormat('en', {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        timeZone: 'UTC',
      }).format(new Date(until.getTime() - 30 * DAY_MS)),
    );
    await expect(page.getByTestId('renew').count()).resolves.toBe(0);

    // The wallet shows the money gone and the licence line.
    await walletWindow();
    await navigateInApp(page, '/wallet');
    await expect
      .poll(() => page.getByTestId('balance-main').innerText(), { timeout: 20_000 })
      .toBe(usdtText(afterUpgrade));
    await page.locator('.tx-history [data-type="license_purchase"]').first().waitFor();

    // PRO4 costs 900 more than PRO2: refused in place, in the user's words, nothing moved.
    await navigateInApp(page, '/profile');
    await page.locator('[data-offer="PRO4"]').click();
    await page.locator('[data-action="main"]').click();
    const refusal = page.getByTestId('upgrade-refusal');
    await refusal.waitFor();
    expect(dialogs.at(-1)).toBe('Upgrade to PRO4 for 900.00 USDT from your main balance?');
    await expect(refusal.innerText()).resolves.toBe(errorCatalogue.INSUFFICIENT_FUNDS.detail.en);
    expect(await mainBalance(demo.id)).toBe(afterUpgrade);
    expect(await mainEntries([demo.id], 'license_purchase')).toBe(-200_000_000n);
    await expect(level.innerText()).resolves.toContain('PRO2');
    await settle(page);
    await expectAccessible(page, 'upgrade refused');
    await screenshotWhole(page, `${SCREENSHOTS_DIR}/en`, 'real-profile-upgrade-refused');

    // Twenty days before the end (time moved on): renewal for a year at −20 %, 240 USDT.
    const soon = new Date(Date.now() + 20 * DAY_MS);
    await stack.prisma.user.update({ where: { id: demo.id }, data: { licenseActiveUntil: soon } });
    await walletWindow(); // asked again by the reload's first load
    await page.reload();
    const renew = page.getByTestId('renew');
    await renew.waitFor();
    await expect(renew.innerText()).resolves.toBe('Renew for a year, −20% · 240.00 USDT');
    await renew.click();
    await expect
      .poll(async () =>
        (await stack.prisma.user.findUniqueOrThrow({ where: { id: demo.id } })).licenseActiveUntil?.getTime(),
      )
      .toBe(soon.getTime() + 365 * DAY_MS);
    expect(dialogs.at(-1)).toMatch(
      /^Renew PRO2 for a year for 240\.00 USDT from your main balance\? Active until /,
    );
    expect(await mainBalance(demo.id)).toBe(afterUpgrade - 240_000_000n);
    await page.getByTestId('renewal-opens').waitFor();
    await settle(page);
    await screenshotWhole(page, `${SCREENSHOTS_DIR}/en`, 'real-profile-renewed');
    // A notification switch (POST /profile/notificate) is stored for the bot.
    const daily = page.getByRole('switch', { name: en.profile.notificationKinds.dailyReport });
    await expect(daily.getAttribute('aria-checked')).resolves.toBe('false');
    await daily.click();
    await expect
      .poll(async () => (await getNotificationSettings(stack.ctx, { userId: demo.id })).dailyReport)
      .toBe(true);
    await expect.poll(() => daily.getAttribute('aria-checked')).toBe('true');
    expect(app.problems).toEqual([]);
    await app.close();
  }, 120_000);

  it("shows a partner's trading fees as matching bonus: today's pending, yesterday's credited", async () => {
    // The demo user's PRO2 (upgraded above) pays generation 1: as if bought three days ago, Maria's
    // trading fees of yesterday and today earn 10 % each; the daily payout pays the closed day.
    await stack.prisma.user.update({
      where: { id: demo.id },
      data: { licenseActiveFrom: new Date(Date.now() - 3 * DAY_MS) },
    });
    const maria = team.find((user) => user.username === 'maria_grid') as User;
    const yesterday = new Date(Date.now() - DAY_MS);
    await bookTradeFee(maria, '12', yesterday, 'e2e:fee:yesterday');
    await bookTradeFee(maria, '5', new Date(), 'e2e:fee:today');
    await payMatchingBonuses(stack.ctx);
    const credited = await mainEntries([demo.id], 'matching_bonus');
    expect(credited).toBe(1_200_000n);

    const app = await openAppPage(browser, { telegram: false });
    const { page } = app;
    await page.goto(stack.launchUrlFor(demo, {}, '/partners/my-rewards/matching-bonus'));
    const detail = page.getByTestId('bonus-detail');
    await detail.waitFor();
    await expect(page.getByTestId('detail-total').innerText()).resolves.toBe(usdtText(500_000n));
    await expect(detail.innerText()).resolves.toContain(en.matchingBonus.statuses.pending);
    await expect(detail.innerText()).resolves.toContain('@maria_grid');
    const history = page.getByTestId('bonus-history');
    await expect(history.locator('[data-date]').count()).resolves.toBe(2);
    // Yesterday's day in the history is what the ledger credited; opened, its detail says so.
    const day = yesterday.toISOString().slice(0, 10);
    await expect(history.locator(`[data-date="${day}"]`).innerText()).resolves.toContain(
      usdtText(credited).replace(' USDT', ''),
    );
    await history.locator(`[data-date="${day}"] button`).click();
    await page.locator(`[data-testid="bonus-detail"][data-date="${day}"]`).waitFor();
    await expect(page.getByTestId('detail-total').innerText()).resolves.toBe(usdtText(credited));
    await expect(detail.innerText()).resolves.toContain(en.matchingBonus.statuses.credited);
    await settle(page);
    await expectAccessible(page, 'matching bonus');
    expect(app.problems).toEqual([]);
    await app.close();
  }, 60_000);

  it('every partner and profile screen in each language, and in the dark theme', async () => {
    // The newest partner: on the list's first page.
    const newest = [...DEMO_TEAM].sort((a, b) => a.daysAgo - b.daysAgo)[0];
    const opened = team.find((user) => user.username === newest?.username) as User;
    const screens: Array<[string, string]> = [
      ['/partners', 'real-partners'],
      ['/partners/my-partners', 'real-my-partners'],
      ['/partners/my-partners/structure', 'real-structure'],
      ['/partners/my-rewards', 'real-my-rewards'],
      ['/partners/my-rewards/referal-bonus', 'real-referral-bonus'],
      ['/partners/my-rewards/matching-bonus', 'real-matching-bonus'],
      ['/partners/my-rewards/network-expansion-bonus', 'real-network-expansion-bonus'],
      ['/links', 'real-links'],
      ['/profile', 'real-profile'],
    ];
    const texts = { en, ru, cn };
    for (const theme of ['light', 'dark'] as const) {
      const shot = await openAppPage(browser, { theme: THEMES[theme] });
      await shot.page.emulateMedia({ reducedMotion: 'reduce' });
      await shot.page.goto(withTheme(stack.launchUrlFor(demo), THEMES[theme]));
      await shot.page.locator('nav.tabbar').waitFor();
      // The dark theme in English: a theme changes colours, a language texts (a11y.e2e likewise).
      for (const language of theme === 'dark' ? (['en'] as const) : (['en', 'ru', 'cn'] as const)) {
        await navigateInApp(shot.page, '/profile');
        await shot.page.locator(`button[data-language="${language}"]`).click();
        await shot.page.waitForFunction(
          (lang) => document.documentElement.lang.startsWith(lang === 'cn' ? 'zh' : lang),
          language,
        );
        await shot.page.waitForFunction(() => !document.querySelector('.toast'), undefined, {
          timeout: 10_000,
        });
        const dir = `${SCREENSHOTS_DIR}/${theme}/${language}`;
        for (const [path, name] of screens) {
          await navigateInApp(shot.page, path);
          await shot.page.getByRole('heading', { level: 1 }).waitFor();
          await shot.page.waitForLoadState('networkidle');
          await settle(shot.page);
          await screenshotWhole(shot.page, dir, name);
          await expectAccessible(shot.page, `${theme} ${language} ${path}`);
          if (path === '/partners/my-rewards/network-expansion-bonus') {
            // The qualification line fits a small phone in every language: nothing runs off.
            await shot.page.setViewportSize({ width: 320, height: VIEWPORT.height });
            await expect(shot.page.evaluate(overflowing)).resolves.toEqual([]);
            await shot.page.setViewportSize(VIEWPORT);
            await expect(shot.page.evaluate(overflowing)).resolves.toEqual([]);
          }
          if (path === '/partners/my-partners') {
            await shot.page.locator(`[data-partner="${opened.uid}"] button`).click();
            await shot.page.getByTestId('partner-team').waitFor();
            await settle(shot.page);
            await shot.page.screenshot({ path: `${dir}/real-partner-profile.png` });
            await expectAccessible(shot.page, `${theme} ${language} partner profile`);
            if (language === 'en') {
              // Telegram's BackButton closes the card and leaves the list where it was.
              await shot.telegramEvent('back_button_pressed');
              await shot.page.getByTestId('partner-profile').waitFor({ state: 'detached' });
              expect(new URL(shot.page.url()).pathname).toBe('/partners/my-partners');
            } else {
              await shot.page.getByRole('button', { name: texts[language].common.close }).click();
            }
          }
        }
      }
      expect(shot.problems).toEqual([]);
      await shot.close();
    }
  }, 300_000);
});
