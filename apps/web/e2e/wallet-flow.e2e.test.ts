import { mkdirSync } from 'node:fs';
import { checkInvariants, fromMicro, userAccountCode } from '@gridbot/ledger';
import { type SandboxTronHandle, startSandboxTron } from '@gridbot/sandbox';
import {
  approveWithdrawal,
  demoHotWalletKey,
  demoXpub,
  deriveDepositAddress,
  tronAddressOfPrivateKey,
} from '@gridbot/services';
import { startWatcher, type Watcher } from '@gridbot/watcher';
import type { Browser, Page } from 'playwright-core';
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

// Money into, around and out of the wallet from the mini app only, against the real API, the real
// watcher and the sandbox TRON node over HTTP: the deposit address made on the first visit, USDT
// sent to it on chain, seen arriving and credited once its block is solidified, the fee balance
// topped up, a transfer to another user by UID (the recipient named before confirming), a
// withdrawal requested and held, then approved, broadcast and confirmed on chain.
let tron: SandboxTronHandle;
let watcher: Watcher;
let stack: Stack;
let browser: Browser;

const hot = { privateKey: demoHotWalletKey(), address: tronAddressOfPrivateKey(demoHotWalletKey()) };

/** Where the user withdraws to: an address of the same test key, not theirs. */
const WITHDRAW_TO = deriveDepositAddress(demoXpub(), 9_999);

beforeAll(async () => {
  // Blocks only when the test makes them: finality is 20 blocks away, made at once.
  tron = await startSandboxTron({
    blockIntervalMs: 0,
    genesis: [{ address: hot.address, usdt: '1000', trx: '1000' }],
  });
  [stack, browser] = await Promise.all([
    startStack({
      env: {
        WALLET_XPUB: demoXpub(),
        TRON_NODE_URL: tron.url,
        WITHDRAW_FEE_USDT: '1',
        WITHDRAW_AUTO_APPROVE_USDT: '10',
      },
    }),
    launchBrowser(),
  ]);
  watcher = startWatcher({ ctx: stack.ctx, nodeUrl: tron.url, hot, intervalMs: 200 });
}, 60_000);

afterAll(async () => {
  await watcher?.stop();
  await browser?.close();
  await stack?.close();
  await tron?.close();
});

/** The sandbox node's control API (apps/sandbox/README.md), as a person would use it. */
const control = async (path: string, body?: unknown) => {
  const response = await fetch(`${tron.url}/_sandbox/tron/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  expect(response.status).toBe(200);
  return response.json() as Promise<Record<string, unknown>>;
};
const mine = (count: number) => control('blocks', { count });
/** Blocks until the newest one is solidified. */
const solidify = () => mine(tron.tron.chain.solidityLag + 1);

const balanceOf = async (userId: number, sub: 'main' | 'fee') =>
  fromMicro(
    (await stack.prisma.ledgerAccount.findUniqueOrThrow({ where: { code: userAccountCode(userId, sub) } }))
      .balance,
  );

const expectBooksIntact = async () => {
  const report = await checkInvariants(stack.prisma);
  expect(report.mismatches).toEqual([]);
  expect(report.ok).toBe(true);
};

/** What the a11y pass checks on every screen, here on states only real money reaches (results, details). */
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

/** The screen as tall as its content, the tab bar at its foot. */
const screenshotWhole = async (page: Page, dir: string, name: string) => {
  mkdirSync(dir, { recursive: true });
  const path = `${dir}/${name}.png`;
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: VIEWPORT.width, height: Math.max(height, VIEWPORT.height) });
  await page.screenshot({ path });
  await page.setViewportSize(VIEWPORT);
};

describe('the wallet from the mini app', () => {
  it('deposits, tops up the fee balance, transfers by UID and requests a withdrawal', async () => {
    const nora = await stack.createUser({ username: 'nora_wallet', firstName: 'Nora' });
    const ivan = await stack.createUser({ username: 'ivan_t', firstName: 'Ivan' });
    const app = await openAppPage(browser, { telegram: false });
    const dialogs: string[] = [];
    app.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await app.page.goto(stack.launchUrlFor(nora));
    await app.page.locator('nav.tabbar').waitFor();

    // 1. The deposit address is made on the first visit, with its QR code.
    await navigateInApp(app.page, '/wallet/deposit');
    const shown = app.page.getByTestId('deposit-address');
    await shown.waitFor();
    const wallet = await stack.prisma.wallet.findUniqueOrThrow({ where: { userId: nora.id } });
    await expect(shown.innerText()).resolves.toBe(wallet.depositAddress);
    await expect(app.page.getByTestId('qr-code').getAttribute('data-value')).resolves.toBe(
      wallet.depositAddress,
    );
    await app.page.getByText(en.deposit.onlyUsdt).waitFor();

    // 2. 50 USDT sent to it on chain: seen arriving in the next block, credited once final.
    const sent = await control('send', { to: wallet.depositAddress, amount: '50' });
    await mine(1);
    const arriving = app.page.getByTestId('recent-deposits');
    await arriving.locator('[data-type="deposit"][data-status="pending"]').waitFor({ timeout: 20_000 });
    await arriving.getByText(en.deposit.arriving).waitFor();
    await settle(app.page);
    await screenshotWhole(app.page, `${SCREENSHOTS_DIR}/en`, 'real-wallet-deposit-arriving');
    expect(await balanceOf(nora.id, 'main')).toBe('0');
    await solidify();
    await app.page.getByText('50.00 USDT credited to your wallet').waitFor({ timeout: 20_000 });
    await arriving.locator('[data-type="deposit"][data-status="credited"]').waitFor();
    expect(await balanceOf(nora.id, 'main')).toBe('50');
    const deposit = await stack.prisma.chainDeposit.findFirstOrThrow({ where: { userId: nora.id } });
    expect(deposit.txid).toBe(sent.txid);
    await expectBooksIntact();

    // 3. The balance on the wallet screen.
    await navigateInApp(app.page, '/wallet');
    const main = app.page.getByTestId('balance-main');
    await expect.poll(() => main.innerText(), { timeout: 20_000 }).toBe('50.00 USDT');

    // 4. Top up the fee balance: confirmed first, the result in place.
    await app.page.getByRole('button', { name: en.wallet.topUpFeeShort, exact: true }).click();
    await app.page.getByLabel(en.topUp.amount).fill('0,5');
    await app.page.locator('[data-action="main"]').click();
    await app.page.getByText(en.validation.min.replace('{{min}}', '1')).waitFor();
    await app.page.getByLabel(en.topUp.amount).fill('10');
    await app.page.locator('[data-action="main"]').click();
    await app.page.locator('[data-result="top-up"]').waitFor();
    expect(dialogs.at(-1)).toBe('Move 10.00 USDT from the main balance to the fee balance?');
    expect(await balanceOf(nora.id, 'fee')).toBe('10');
    await settle(app.page);
    await screenshotWhole(app.page, `${SCREENSHOTS_DIR}/en`, 'real-wallet-top-up-done');
    await expectAccessible(app.page, 'real-wallet-top-up-done');
    await expect.poll(() => main.innerText()).toBe('40.00 USDT');
    await expectBooksIntact();

    // 5. Transfer to Ivan by UID: his UID and masked name show before the money moves
    // (docs/wallet.md#internal-transfer: never the whole username).
    await navigateInApp(app.page, '/wallet/internal-transfer');
    await app.page.getByLabel(en.internal.recipient).fill(String(ivan.uid));
    await app.page.getByTestId('recipient').getByText('@i…t').waitFor();
    await expect(app.page.getByTestId('recipient').innerText()).resolves.not.toContain('ivan_t');
    await app.page.getByLabel(en.internal.amount).fill('15');
    await app.page.locator('[data-action="main"]').click();
    await app.page.getByTestId('transfer-result').waitFor();
    expect(dialogs.at(-1)).toBe(`Send 15.00 USDT to @i…t (UID ${ivan.uid})? A transfer cannot be undone.`);
    expect(await balanceOf(ivan.id, 'main')).toBe('15');
    await settle(app.page);
    await screenshotWhole(app.page, `${SCREENSHOTS_DIR}/en`, 'real-wallet-transfer-sent');
    await expectAccessible(app.page, 'real-wallet-transfer-sent');
    await expectBooksIntact();

    // 6. Withdraw: the address is checked in place, then the withdrawal is requested and held.
    await navigateInApp(app.page, '/wallet/withdraw');
    await app.page.getByLabel(en.withdraw.address).fill('TXYZ1234567890abcdefghijkLMNopqRS');
    await app.page.getByRole('button', { name: en.withdraw.saveAddress }).click();
    await app.page.getByText('Withdrawal address format error: use a USDT TRC20 address.').waitFor();
    await app.page.getByLabel(en.withdraw.address).fill(WITHDRAW_TO);
    await app.page.getByRole('button', { name: en.withdraw.saveAddress }).click();
    await app.page.getByTestId('withdraw-address').getByText(WITHDRAW_TO).waitFor();
    await app.page.getByLabel(en.withdraw.amount).fill('20');
    await expect(app.page.getByTestId('withdraw-receives').innerText()).resolves.toBe('19.00 USDT');
    await app.page.locator('[data-action="main"]').click();
    const result = app.page.getByTestId('withdraw-result');
    await result.waitFor();
    expect(dialogs.at(-1)).toBe(
      `Withdraw 20.00 USDT to ${WITHDRAW_TO.slice(0, 8)}…${WITHDRAW_TO.slice(-8)}? Network fee 1.00 USDT, you receive 19.00 USDT.`,
    );
    await expect(result.getAttribute('data-status')).resolves.toBe('pending');
    await result.getByText(en.withdrawal.hints.pending).waitFor();
    await settle(app.page);
    await screenshotWhole(app.page, `${SCREENSHOTS_DIR}/en`, 'real-wallet-withdraw-requested');
    await expectAccessible(app.page, 'real-wallet-withdraw-requested');
    const withdrawal = await stack.prisma.withdrawal.findFirstOrThrow({ where: { userId: nora.id } });
    expect(withdrawal.status).toBe('pending');
    expect(await balanceOf(nora.id, 'main')).toBe('5');
    await navigateInApp(app.page, '/wallet');
    const held = app.page.getByTestId('balance-held');
    await expect.poll(() => held.innerText()).toBe('On hold\n20.00 USDT');
    await expect.poll(() => main.innerText()).toBe('5.00 USDT');
    const onHold = app.page.locator(`[data-withdrawal="${withdrawal.id}"]`);
    await expect.poll(() => onHold.getAttribute('data-status')).toBe('pending');
    await expectBooksIntact();

    // 7. An operator approves it; the watcher signs and broadcasts it, the chain confirms it. A
    // block first: a live chain's head is seconds old, and the signed transaction expires a minute
    // after the head it was made at.
    await mine(1);
    await approveWithdrawal(stack.ctx, { withdrawalId: withdrawal.id, operator: 'e2e' });
    await expect.poll(() => onHold.getAttribute('data-status'), { timeout: 20_000 }).toBe('broadcast');
    const { txid } = await stack.prisma.withdrawal.findUniqueOrThrow({ where: { id: withdrawal.id } });
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    await onHold.getByRole('button').first().click();
    await onHold.locator(`a[href="https://tronscan.org/#/transaction/${txid}"]`).waitFor();
    await settle(app.page);
    await screenshotWhole(app.page, `${SCREENSHOTS_DIR}/en`, 'real-wallet-withdrawal-sent');
    await expectAccessible(app.page, 'real-wallet-withdrawal-sent');
    await solidify();
    await onHold.waitFor({ state: 'detached', timeout: 20_000 });
    await expect.poll(() => held.innerText()).toBe('On hold\n0.00 USDT');
    await app.page.locator('.tx-history [data-type="withdraw"][data-status="confirmed"]').waitFor();
    const balances = await control(`balances/${WITHDRAW_TO}`);
    expect(balances.usdt).toBe('19');
    await expectBooksIntact();
    expect(app.problems).toEqual([]);
    await app.close();

    // 8. Every wallet screen with this user's records, in each language and theme (look at them:
    // artifacts/screenshots/<theme>/<language>/real-wallet*.png).
    const screens: Array<[string, string]> = [
      ['/wallet', 'real-wallet'],
      ['/wallet/deposit', 'real-wallet-deposit'],
      ['/wallet/withdraw', 'real-wallet-withdraw'],
      ['/wallet/internal-transfer', 'real-wallet-transfer'],
    ];
    const titles = { en: en.wallet.title, ru: ru.wallet.title, cn: cn.wallet.title };
    // One page per theme, the language switched on the profile screen: the wallet call is limited
    // per user (1 per 2 s), and each new page's first load asks for it again.
    for (const theme of ['light', 'dark'] as const) {
      const shot = await openAppPage(browser, { theme: THEMES[theme] });
      await shot.page.emulateMedia({ reducedMotion: 'reduce' });
      await shot.page.goto(withTheme(stack.launchUrlFor(nora), THEMES[theme]));
      await shot.page.locator('nav.tabbar').waitFor();
      for (const language of ['en', 'ru', 'cn'] as const) {
        await navigateInApp(shot.page, '/profile');
        await shot.page.locator(`button[data-language="${language}"]`).click();
        await shot.page.waitForFunction(
          (lang) => document.documentElement.lang.startsWith(lang === 'cn' ? 'zh' : lang),
          language,
        );
        await shot.page.waitForFunction(() => !document.querySelector('.toast'), undefined, {
          timeout: 10_000,
        });
        for (const [path, name] of screens) {
          await navigateInApp(shot.page, path);
          await shot.page.waitForLoadState('networkidle');
          if (path === '/wallet')
            await shot.page.getByRole('heading', { level: 1, name: titles[language] }).waitFor();
          await settle(shot.page);
          await screenshotWhole(shot.page, `${SCREENSHOTS_DIR}/${theme}/${language}`, name);
          await expectAccessible(shot.page, `${theme} ${language} ${path}`);
          if (path === '/wallet') {
            // The history with a line opened, and the fee top-up open.
            await shot.page.locator('.tx-history .tx__summary').first().click();
            await shot.page
              .getByRole('button', { name: { en, ru, cn }[language].wallet.topUpFeeShort, exact: true })
              .click();
            await settle(shot.page);
            await expectAccessible(shot.page, `${theme} ${language} ${path} opened`);
            await screenshotWhole(shot.page, `${SCREENSHOTS_DIR}/${theme}/${language}`, `${name}-opened`);
          }
        }
      }
      expect(shot.problems).toEqual([]);
      await shot.close();
    }
  }, 300_000);
});
