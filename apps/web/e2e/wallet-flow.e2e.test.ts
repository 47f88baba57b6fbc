import { mkdirSync } from 'node:fs';
import { type RunningBot, startBot } from '@gridbot/bot';
import {
  checkInvariants,
  ensureAccount,
  fromMicro,
  SYSTEM_ACCOUNTS,
  toMicro,
  transfer,
  userAccountCode,
} from '@gridbot/ledger';
import {
  type SandboxTelegramHandle,
  type SandboxTronHandle,
  startSandboxTelegram,
  startSandboxTron,
} from '@gridbot/sandbox';
import {
  approveWithdrawal,
  demoHotWalletKey,
  demoXpub,
  deriveDepositAddress,
  fundWallet,
  getWalletOverview,
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
// sent to it on chain, seen arriving and credited once its block is solidified, deposits under the
// minimum shown waiting for more (not credited), the fee balance
// topped up, a transfer to another user by UID (the recipient named before confirming), a
// withdrawal requested and held, then approved, broadcast and confirmed on chain.
let tron: SandboxTronHandle;
let telegram: SandboxTelegramHandle;
let bot: RunningBot;
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
        // The address lock and the release delay have tests of their own (docs/wallet.md#protections);
        // this flow shows the lock on the screens by moving the address's time instead.
        WITHDRAW_ADDRESS_LOCK_HOURS: '0',
        WITHDRAW_RELEASE_DELAY_S: '0',
      },
    }),
    launchBrowser(),
  ]);
  // The owner is told of each withdrawal on Telegram before it leaves: the bot against the Bot API
  // stand-in delivers the notices the watcher waits for.
  telegram = await startSandboxTelegram({ token: stack.ctx.auth.botToken });
  bot = await startBot({
    ctx: stack.ctx,
    token: telegram.token,
    apiRoot: telegram.url,
    miniAppUrl: 'http://localhost',
    poll: false,
    notifyIntervalMs: 200,
    dailySummaryIntervalMs: 0,
  });
  watcher = startWatcher({ ctx: stack.ctx, nodeUrl: tron.url, hot, intervalMs: 200 });
}, 60_000);

afterAll(async () => {
  await watcher?.stop();
  await bot?.stop();
  await telegram?.close();
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
  it('load more stays exact while transfers arrive (docs/decisions.md#lists-paged-by-cursor-issue-22)', async () => {
    const mia = await stack.createUser({ username: 'mia_pages', firstName: 'Mia' });
    const sam = await stack.createUser({ username: 'sam_sends', firstName: 'Sam' });
    await fundWallet(stack.prisma, { userId: mia.id, deposit: '100', fee: '50', key: `pages:${mia.id}` });
    await fundWallet(stack.prisma, { userId: sam.id, deposit: '100', fee: '1', key: `pages:${sam.id}` });
    await ensureAccount(stack.prisma, SYSTEM_ACCOUNTS.fees);
    const book = (key: string, type: 'trade_fee' | 'transfer_out', from: string, to: string) =>
      transfer(stack.prisma, {
        idempotencyKey: key,
        type,
        legs: [
          { account: from, amount: -toMicro('0.5') },
          { account: to, amount: toMicro('0.5') },
        ],
      });
    for (let i = 1; i <= 12; i++) {
      await book(
        `pages-fee:${mia.id}:${i}`,
        'trade_fee',
        userAccountCode(mia.id, 'fee'),
        SYSTEM_ACCOUNTS.fees,
      );
    }
    const all = (await getWalletOverview(stack.ctx, { userId: mia.id, days: 30, page: 1, limit: 100 }))
      .transactions.items;
    expect(all).toHaveLength(14);

    const app = await openAppPage(browser);
    await app.page.clock.install();
    await app.page.goto(stack.launchUrlFor(mia, {}, '/wallet'));
    const rows = app.page.locator('.tx-history li.tx');
    const shown = () => rows.evaluateAll((items) => items.map((item) => item.getAttribute('data-id')));
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(10);
    // Three transfers from Sam arrive while Mia looks at the first page; then she loads more.
    for (let i = 1; i <= 3; i++) {
      await book(
        `pages-in:${mia.id}:${i}`,
        'transfer_out',
        userAccountCode(sam.id, 'main'),
        userAccountCode(mia.id, 'main'),
      );
    }
    await app.page.getByRole('button', { name: en.common.loadMore }).click();
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(14);
    expect(await shown()).toEqual(all.map((line) => line.id));
    expect(await app.page.getByRole('button', { name: en.common.loadMore }).count()).toBe(0);

    // The wallet's own refresh brings them on top; every row loaded before stays, each once.
    await app.page.clock.fastForward(11_000);
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(17);
    const after = await shown();
    expect(after.slice(3)).toEqual(all.map((line) => line.id));
    expect(new Set(after).size).toBe(17);
    await expect(
      app.page.locator('.tx-history li.tx[data-type="transfer_in"]').evaluateAll((items) => items.length),
    ).resolves.toBe(3);
    await app.close();
  });

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

    // 2b. 5 and 4 USDT, each under the minimum: the line says so instead of a plain 'Pending',
    // seen and once final; they wait, uncredited, for more deposits under the minimum.
    const belowMinimum = en.wallet.reasons.below_minimum.replaceAll('{{min}}', '11');
    await control('send', { to: wallet.depositAddress, amount: '5' });
    await control('send', { to: wallet.depositAddress, amount: '4' });
    await mine(1);
    const small = arriving.locator('[data-type="deposit"]', { hasText: belowMinimum });
    await expect.poll(() => small.count(), { timeout: 20_000 }).toBe(2);
    await expect(small.first().getByText(en.wallet.belowMinimum).count()).resolves.toBe(1);
    await solidify();
    await arriving
      .locator('[data-status="not_credited"]', { hasText: belowMinimum })
      .nth(1)
      .waitFor({ timeout: 20_000 });
    await app.page.getByText(en.deposit.minimum.replaceAll('{{min}}', '11')).waitFor();
    await settle(app.page);
    await screenshotWhole(app.page, `${SCREENSHOTS_DIR}/en`, 'real-wallet-deposit-below-minimum');
    await expectAccessible(app.page, 'real-wallet-deposit-below-minimum');
    // Its details say it too, with the status the line shows.
    const opened = small.first();
    await opened.locator('.tx__summary').click();
    await opened.locator('.tx__hint', { hasText: belowMinimum }).waitFor();
    await opened.locator('.tx__details').getByText(en.wallet.belowMinimum).waitFor();
    await settle(app.page);
    await screenshotWhole(app.page, `${SCREENSHOTS_DIR}/en`, 'real-wallet-deposit-below-minimum-opened');
    await opened.locator('.tx__summary').click();
    expect(await balanceOf(nora.id, 'main')).toBe('50');

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
    // Over the day's allowance (10 USDT): it waits for a review, and says so.
    await result.getByTestId('withdrawal-review').waitFor();
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

    // The owner's Telegram notice of the request left before the broadcast.
    const notice = telegram.telegram
      .messagesTo(Number(nora.telegramId))
      .find((m) => m.text.includes('Withdrawal requested: 20 USDT'));
    expect(notice?.sent_at).toBeLessThan(tron.tron.chain.arrivedAt(txid!)!);

    // A changed address waits a day (shown on the withdraw screen), and a freeze from the wallet
    // screen refuses everything until it is lifted.
    await stack.prisma.wallet.update({
      where: { userId: nora.id },
      data: { withdrawAddressUsableFrom: new Date(Date.now() + 86_400_000) },
    });

    // 8. Every wallet screen with this user's records, in each language (the dark theme in English) (look at them:
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

    // 9. "This wasn't me": the freeze from the wallet screen, then the frozen wallet and withdraw screens.
    const frozen = await openAppPage(browser, { telegram: false });
    frozen.page.on('dialog', (dialog) => void dialog.accept());
    await frozen.page.goto(stack.launchUrlFor(nora));
    await frozen.page.locator('nav.tabbar').waitFor();
    await navigateInApp(frozen.page, '/profile');
    await frozen.page.locator('button[data-language="en"]').click();
    await frozen.page.waitForFunction(() => document.documentElement.lang.startsWith('en'));
    await navigateInApp(frozen.page, '/wallet');
    await frozen.page.getByTestId('freeze-withdrawals').getByRole('button').click({ timeout: 60_000 });
    await frozen.page.getByTestId('withdrawals-frozen').waitFor();
    expect(await stack.prisma.walletFreeze.count({ where: { userId: nora.id, liftedAt: null } })).toBe(1);
    await settle(frozen.page);
    await screenshotWhole(frozen.page, `${SCREENSHOTS_DIR}/light/en`, 'real-wallet-frozen');
    await expectAccessible(frozen.page, 'real-wallet-frozen');
    await navigateInApp(frozen.page, '/wallet/withdraw');
    await frozen.page.getByTestId('withdrawals-frozen').waitFor();
    await settle(frozen.page);
    await screenshotWhole(frozen.page, `${SCREENSHOTS_DIR}/light/en`, 'real-wallet-withdraw-frozen');
    expect(frozen.problems).toEqual([]);
    await frozen.close();
  }, 300_000);

  it("exports the wallet history as CSV through Telegram's download prompt", async () => {
    const vera = await stack.createUser({ username: 'vera_csv', firstName: 'Vera' });
    await fundWallet(stack.prisma, { userId: vera.id, deposit: '25', fee: '5', key: `e2e-csv:${vera.id}` });
    const app = await openAppPage(browser);
    await app.page.goto(stack.launchUrlFor(vera, {}, '/wallet'));
    await app.page.getByRole('button', { name: en.csvExport.button }).click();
    // docs/product.md#exports: Telegram's client fetches the file itself, without our session.
    await app.page.waitForFunction(() =>
      (window as unknown as { __tgCalls: Array<{ type: string }> }).__tgCalls.some(
        (call) => call.type === 'web_app_request_file_download',
      ),
    );
    const calls = await app.telegramCalls();
    const request = calls.find((call) => call.type === 'web_app_request_file_download');
    const { url, file_name } = request!.params as { url: string; file_name: string };
    expect(file_name).toMatch(/^gridbot-wallet-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(url.startsWith(`${stack.baseUrl}/export/download.csv?token=`)).toBe(true);
    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain(`filename="${file_name}"`);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toMatch(/^created_at,type,status,balance,amount,asset,/);
    expect(lines.filter((line) => line.includes('"deposit","credited","main",25,"USDT"'))).toHaveLength(1);
    expect(
      lines.filter((line) => line.includes('"deposit_balance","confirmed","fee",5,"USDT"')),
    ).toHaveLength(1);
    await expect(app.page.locator('.export-csv [role="alert"]').count()).resolves.toBe(0);
    expect(app.problems).toEqual([]);
    await app.close();
  }, 60_000);
});
