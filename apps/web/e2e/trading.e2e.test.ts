import { randomBytes, randomUUID } from 'node:crypto';
import { errorCatalogue } from '@gridbot/contracts';
import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { fundWallet, reconcileCoinBot, saveExchangeKeys } from '@gridbot/services';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cn } from '../src/i18n/locales/cn';
import { en } from '../src/i18n/locales/en';
import { ru } from '../src/i18n/locales/ru';
import { launchBrowser, navigateInApp, openAppPage, screenshot, settle } from './support/browser';
import { type Stack, startStack } from './support/stack';

// The real API, the real engine and the sandbox exchange over HTTP, driven from the mini app as a
// user would: no fixtures.
let sandbox: SandboxExchangeHandle;
let stack: Stack;
let browser: Browser;

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    markets: [
      {
        base: 'XRP',
        quote: 'USDT',
        tickSize: '0.0001',
        stepSize: '0.1',
        minNotional: '5',
        feed: { kind: 'fixed', price: '0.5' },
      },
    ],
  });
  [stack, browser] = await Promise.all([
    startStack({
      sandboxUrl: sandbox.url,
      sandboxDialectUrls: { bybit: sandbox.bybitUrl, okx: sandbox.okxUrl },
    }),
    launchBrowser(),
  ]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await sandbox?.close();
});

/** An XRP coin bot on the user's saved exchange account: 10 USDT, step 1 %, +0.1 %, 3 trades. */
const xrpBot = async (userId: number, extra: { running?: boolean; startedAt?: Date } = {}) => {
  const account = await stack.prisma.exchangeAccount.findFirstOrThrow({ where: { userId } });
  return stack.prisma.coinBot.create({
    data: {
      userId,
      exchangeAccountId: account.id,
      coin: 'XRP',
      symbol: 'XRP/USDT',
      orderSize: '10',
      stepPct: '1',
      stepIncreasePct: '0.1',
      maxTrades: 3,
      ...extra,
    },
  });
};

describe('trading from the mini app', () => {
  it("shows the IPs to trust with a copy button and Binance's 30-day rule, and tells a key that refuses our IP apart", async () => {
    const user = await stack.createUser({ username: 'ivan_ip', firstName: 'Ivan' });
    const keys = sandbox.control.createAccount({ balances: { USDT: '50' }, ipWhitelist: ['203.0.113.7'] });
    const app = await openAppPage(browser, { telegram: false });
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { level: 1, name: 'Hi, Ivan' }).waitFor();
    await navigateInApp(app.page, '/profile/api-key');
    // The sandbox sees this installation at 127.0.0.1: that is the address to trust.
    const ip = app.page.getByTestId('egress-ip');
    await ip.getByText('127.0.0.1').waitFor();
    await ip.getByRole('button', { name: `${en.common.copy} 127.0.0.1` }).waitFor();
    await app.page.getByText(en.apiKey.egressHint).waitFor();

    await app.page.getByLabel('API key').fill(keys.apiKey);
    await app.page.getByLabel('Secret key').fill(keys.secret);
    await app.page.getByRole('button', { name: 'Save keys' }).click();
    // The refusal stays in the form with its own cause (not a toast, not the spot permission).
    const refusal = app.page.getByTestId('api-key-refusal');
    await refusal
      .getByText("Binance refused these keys from this server's IP address.", { exact: false })
      .waitFor();
    await expect(refusal.getAttribute('data-problem')).resolves.toBe('API_KEY_IP_NOT_ALLOWED');
    await expect(app.page.getByText(errorCatalogue.API_KEY_NO_SPOT.detail.en).count()).resolves.toBe(0);
    expect(await stack.prisma.exchangeAccount.count({ where: { userId: user.id } })).toBe(0);

    sandbox.control.setKeyAccess(keys.apiKey, { ipWhitelist: ['127.0.0.1'] });
    await app.page.getByRole('button', { name: 'Save keys' }).click();
    await app.page.getByText('API keys saved').waitFor();
    await navigateInApp(app.page, '/profile/api-key');
    await app.page.getByText(en.apiKey.restricted, { exact: true }).waitFor();
    await settle(app.page);
    await screenshot(app.page, 'en', 'api-key-trusted-ips');
    await app.close();
  });

  it('connects OKX keys: the passphrase field, the formats checked in place, the saved keys shown as OKX', async () => {
    const user = await stack.createUser({ username: 'olga_okx', firstName: 'Olga' });
    const okxKeys = { apiKey: randomUUID(), secret: randomBytes(16).toString('hex').toUpperCase() };
    const keys = sandbox.control.createAccount({
      balances: { USDT: '40' },
      ...okxKeys,
      passphrase: 'Olga-Pass7',
    });
    const app = await openAppPage(browser, { telegram: false });
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { level: 1, name: 'Hi, Olga' }).waitFor();
    await navigateInApp(app.page, '/profile/api-key');
    await expect(app.page.getByLabel(en.apiKey.passphrase).count()).resolves.toBe(0);
    await app.page.getByRole('button', { name: 'OKX', exact: true }).click();
    await app.page.getByTestId('api-key-venue-hint').getByText(en.apiKey.venueHint.okx).waitFor();
    // A Binance-shaped key is not an OKX key: said in place, nothing sent.
    await app.page.getByLabel('API key').fill('A'.repeat(64));
    await app.page.getByLabel('Secret key').fill(keys.secret);
    await app.page.getByRole('button', { name: 'Save keys' }).click();
    await app.page.getByText(en.validation.okxApiKey).waitFor();
    await app.page.getByText(en.validation.required).waitFor();
    await app.page.getByLabel('API key').fill(keys.apiKey);
    await app.page.getByLabel(en.apiKey.passphrase).fill(keys.passphrase);
    await settle(app.page);
    await screenshot(app.page, 'en', 'api-key-okx');
    await app.page.getByRole('button', { name: 'Save keys' }).click();
    await app.page.getByText('API keys saved').waitFor();
    const saved = await stack.prisma.exchangeAccount.findFirstOrThrow({ where: { userId: user.id } });
    expect([saved.exchange, saved.apiKey]).toEqual(['okx', keys.apiKey]);
    // Back on the screen: the saved keys' exchange is chosen, with its own advice on trusted IPs.
    await navigateInApp(app.page, '/profile/api-key');
    await app.page.getByText(en.apiKey.egressHintOkx).waitFor();
    await expect(
      app.page.getByRole('button', { name: 'OKX', exact: true }).getAttribute('aria-pressed'),
    ).resolves.toBe('true');
    await app.close();
  });

  it('keeps keys on Binance and Bybit: adds the same coin on Bybit, one portfolio shows both with their exchange, the Bybit coin trades on Bybit', async () => {
    const user = await stack.createUser({ username: 'bea_venues', firstName: 'Bea' });
    const binance = sandbox.control.createAccount({ balances: { USDT: '300' } });
    const bybit = sandbox.control.createAccount({ balances: { USDT: '200' } });
    await saveExchangeKeys(stack.ctx, {
      userId: user.id,
      exchange: 'binance',
      apiKey: binance.apiKey,
      secretKey: binance.secret,
    });
    await xrpBot(user.id);
    await fundWallet(stack.prisma, {
      userId: user.id,
      deposit: '20',
      fee: '20',
      key: `e2e-venues:${user.id}`,
    });
    const app = await openAppPage(browser, { telegram: false });
    app.page.on('dialog', (dialog) => void dialog.accept());
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { level: 1, name: 'Hi, Bea' }).waitFor();

    // Bybit keys beside the Binance ones: the screen opens on the keys saved first.
    await navigateInApp(app.page, '/profile/api-key');
    await app.page.getByText(en.apiKey.egressHint).waitFor();
    await app.page.getByRole('button', { name: 'Bybit', exact: true }).click();
    await app.page.getByLabel('API key').fill(bybit.apiKey);
    await app.page.getByLabel('Secret key').fill(bybit.secret);
    await app.page.getByRole('button', { name: 'Save keys' }).click();
    await app.page.getByText('API keys saved').waitFor();
    await navigateInApp(app.page, '/profile/api-key');
    await app.page.getByText('Keys connected: Binance, Bybit').waitFor();

    // The add-coin screen offers both accounts; on Bybit XRP is not in the portfolio yet.
    await navigateInApp(app.page, '/portfolio/add');
    // The add screen first (its list of the keys saved first): the API-key screen just left has a
    // Bybit button of its own.
    await app.page.getByText('Exchange: Binance').waitFor();
    await app.page.getByRole('button', { name: 'Bybit', exact: true }).click();
    await app.page.getByText('Exchange: Bybit').waitFor();
    const market = app.page.locator('[data-coin="XRP"]');
    await expect.poll(() => market.getByText(en.addToken.inPortfolio).count()).toBe(0);
    await market.getByRole('button').first().click();
    await market.getByRole('button', { name: 'Add XRP to the portfolio' }).click();
    await market.getByText('XRP is in your portfolio, paused').waitFor();
    const bots = await stack.prisma.coinBot.findMany({
      where: { userId: user.id, deletedAt: null },
      include: { exchangeAccount: { select: { exchange: true } } },
      orderBy: { id: 'asc' },
    });
    expect(bots.map((b) => `${b.coin}@${b.exchangeAccount.exchange}`)).toEqual(['XRP@binance', 'XRP@bybit']);

    // One portfolio: both XRP coin bots, each with its exchange.
    await navigateInApp(app.page, '/portfolio');
    await app.page.locator('[data-exchange="bybit"]').first().waitFor();
    await expect(app.page.locator('[data-exchange="binance"]').count()).resolves.toBe(1);
    await settle(app.page);
    await screenshot(app.page, 'en', 'portfolio-two-exchanges');

    // The Bybit coin page: its exchange beside the market; started from its mode switch, it buys on Bybit.
    await app.page.locator('a.row', { has: app.page.locator('[data-exchange="bybit"]') }).click();
    await app.page.locator('.hero [data-exchange="bybit"]').waitFor();
    await app.page.getByRole('button', { name: en.token.modes.active, exact: true }).click();
    await expect
      .poll(
        async () => (await stack.prisma.coinBot.findUniqueOrThrow({ where: { id: bots[1]!.id } })).running,
      )
      .toBe(true);
    expect((await stack.prisma.coinBot.findUniqueOrThrow({ where: { id: bots[0]!.id } })).running).toBe(
      false,
    );
    await reconcileCoinBot(stack.ctx, { coinBotId: bots[1]!.id });
    await reconcileCoinBot(stack.ctx, { coinBotId: bots[1]!.id });
    expect(await stack.prisma.lot.count({ where: { coinBotId: bots[1]!.id, closedAt: null } })).toBe(1);
    // The buy spent the Bybit account's USDT, not the Binance account's.
    const bybitClient = await stack.ctx.exchanges.forAccount(bots[1]!.exchangeAccountId);
    expect((await bybitClient.fetchBalance()).XRP?.total.gt(0)).toBe(true);
    const binanceClient = await stack.ctx.exchanges.forAccount(bots[0]!.exchangeAccountId);
    expect((await binanceClient.fetchBalance()).XRP?.total.gt(0) ?? false).toBe(false);
    expect(app.problems).toEqual([]);
    await app.close();
  }, 120_000);

  it('connects sandbox keys, is refused a start without fee balance, starts, sees the buy, pauses', async () => {
    const user = await stack.createUser({ username: 'tina_trader', firstName: 'Tina' });
    const keys = sandbox.control.createAccount({ balances: { USDT: '500' } });
    const app = await openAppPage(browser, { telegram: false });
    app.page.on('dialog', (dialog) => void dialog.accept());
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { level: 1, name: 'Hi, Tina' }).waitFor();

    // API keys: a wrong secret is refused in place, the right one is saved and shown masked.
    await navigateInApp(app.page, '/profile/api-key');
    await app.page.getByLabel('API key').fill(keys.apiKey);
    await app.page.getByLabel('Secret key').fill('W'.repeat(64));
    await app.page.getByRole('button', { name: 'Save keys' }).click();
    const refusal = app.page.getByTestId('api-key-refusal');
    await refusal.getByText(errorCatalogue.API_KEY_INVALID.detail.en).waitFor();
    expect(await stack.prisma.exchangeAccount.count({ where: { userId: user.id } })).toBe(0);
    // Typing the keys again clears it.
    await app.page.getByLabel('Secret key').fill(keys.secret);
    await expect.poll(() => refusal.count()).toBe(0);
    await app.page.getByRole('button', { name: 'Save keys' }).click();
    await app.page.getByText('API keys saved').waitFor();
    await navigateInApp(app.page, '/profile/api-key');
    await app.page.getByText(`${keys.apiKey.slice(0, 4)}…${keys.apiKey.slice(-4)}`).waitFor();
    await app.page.getByText('Connected', { exact: true }).waitFor();
    // When the keys were saved, and apart from it when they were last checked.
    await app.page.getByText(en.apiKey.savedAt, { exact: true }).waitFor();
    await app.page.getByText(en.apiKey.checkedAt, { exact: true }).waitFor();
    await settle(app.page);
    await screenshot(app.page, 'en', 'trading-api-key-connected');

    // "Start all" with no coin says so and changes nothing.
    await navigateInApp(app.page, '/');
    await app.page.getByRole('button', { name: 'Start all' }).click();
    await app.page.getByText(errorCatalogue.NO_COINS_TO_START.detail.en).first().waitFor();
    await expect(app.page.getByText(en.toast.tradingStarted).count()).resolves.toBe(0);

    // A coin in the portfolio (the add-coin screen is wired in a later change).
    const bot = await xrpBot(user.id);

    // Start without fee balance: the spec's text, nothing starts.
    await navigateInApp(app.page, '/');
    await app.page.getByText('XRP', { exact: true }).first().waitFor();
    await app.page.getByRole('button', { name: 'Start all' }).click();
    await app.page.getByText('To start, top up your wallet to pay trading fees.').first().waitFor();
    expect((await stack.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } })).running).toBe(false);

    // With a fee balance it starts; the engine buys; the panel shows the deal.
    await fundWallet(stack.prisma, { userId: user.id, deposit: '20', fee: '20', key: `e2e:${user.id}` });
    await app.page.waitForTimeout(2_600);
    await app.page.getByRole('button', { name: 'Start all' }).click();
    await app.page.getByText('Trading started').waitFor();
    expect((await stack.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } })).running).toBe(true);
    await reconcileCoinBot(stack.ctx, { coinBotId: bot.id });
    await reconcileCoinBot(stack.ctx, { coinBotId: bot.id });
    const lots = await stack.prisma.lot.count({ where: { coinBotId: bot.id, closedAt: null } });
    expect(lots).toBe(1);
    await app.page.getByText('Deals: 1 of 3').waitFor({ timeout: 15_000 });
    await settle(app.page);
    await screenshot(app.page, 'en', 'trading-panel-running');

    // The panel's price chart, once scrolled to: the exchange's candles, the buy as a marker, the
    // ladder's next buy and the lot's take profit as lines (GET /portfolio/chart, docs/grid.md#coin-chart).
    await app.page.locator('[data-testid="coin-chart"]').scrollIntoViewIfNeeded();
    const chart = app.page.locator('[data-testid="price-chart"][data-markers="1"][data-lines="2"]');
    await chart.locator('canvas').first().waitFor({ timeout: 15_000 });
    expect(Number(await chart.getAttribute('data-candles'))).toBeGreaterThan(0);

    // Pause all (confirmed): the bot stops, its lot stays.
    await app.page.getByRole('button', { name: 'Pause all' }).click();
    await app.page.getByText('Trading stopped').waitFor();
    const paused = await stack.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } });
    expect(paused.running).toBe(false);
    expect(await stack.prisma.lot.count({ where: { coinBotId: bot.id, closedAt: null } })).toBe(1);
    expect(app.problems).toEqual([]);
    await app.close();
  }, 120_000);
  it('shows on the coin page which take profits and buys rest on the exchange, which were refused and why, and warns when the plan is not on the book', async () => {
    // docs/grid.md#on-the-exchange: from the engine's records; the sandbox refuses and the engine cancels.
    sandbox.control.setLiquidity('XRP/USDT', 'infinite');
    sandbox.control.setPrice('XRP/USDT', '0.5');
    const user = await stack.createUser({ username: 'olga_book', firstName: 'Olga' });
    const keys = sandbox.control.createAccount({ balances: { USDT: '500' } });
    await fundWallet(stack.prisma, { userId: user.id, deposit: '20', fee: '20', key: `book:${user.id}` });
    await saveExchangeKeys(stack.ctx, {
      userId: user.id,
      exchange: 'binance',
      apiKey: keys.apiKey,
      secretKey: keys.secret,
    });
    const bot = await xrpBot(user.id, { running: true, startedAt: new Date() });
    const reconcile = () => reconcileCoinBot(stack.ctx, { coinBotId: bot.id });
    await reconcile(); // lot 1 at 0.5
    sandbox.control.setPrice('XRP/USDT', '0.495');
    await reconcile(); // lot 2 at 0.495
    // The trader cancels lot 2's take profit on the exchange and moves the coin away: refused.
    const tp2 = await stack.prisma.order.findFirstOrThrow({
      where: { coinBotId: bot.id, key: 'tp:2', status: 'open' },
    });
    sandbox.control.cancelOrder(keys.apiKey, 'XRP/USDT', tp2.clientOrderId);
    sandbox.control.setBalances(keys.apiKey, { XRP: '0' });
    await reconcile();

    const app = await openAppPage(browser, { telegram: false });
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { level: 1, name: 'Hi, Olga' }).waitFor();
    await navigateInApp(app.page, '/portfolio/show?coin=XRP');
    const ladder = app.page.getByTestId('ladder');
    const order = (lot: number, state: string) =>
      ladder.locator(`[data-lot="${lot}"][data-on-book="${state}"]`);
    await order(1, 'resting').getByText(en.onBook.state.resting).waitFor();
    await order(2, 'refused').getByText(en.onBook.state.refused).waitFor();
    // The reason in the trader's terms, and the exchange's own code (Binance -2010).
    await order(2, 'refused')
      .getByText(`${en.onBook.reason.insufficient_balance} Exchange code -2010.`)
      .waitFor();
    // The next buy opens lot 3 and rests; lot numbers are the deals' own.
    await order(3, 'resting').getByText('Lot 3', { exact: false }).waitFor();
    const note = app.page.getByTestId('plan-on-book');
    await note
      .getByText('1 of 2 take profits are not on the exchange: 1 refused.', { exact: false })
      .waitFor();
    await settle(app.page);
    await screenshot(app.page, 'en', 'coin-orders-refused-top');
    await ladder.scrollIntoViewIfNeeded();
    await screenshot(app.page, 'en', 'coin-orders-refused');

    // Paused (the engine cancels the ladder), the purchase limit lowered to the open lots, started:
    // until the engine places it lot 1's take profit is missing (lot 2's last placement stays the
    // refused one), and the coin at its limit does not say it waits for a sell.
    await stack.prisma.coinBot.update({ where: { id: bot.id }, data: { running: false } });
    await reconcile();
    await stack.prisma.coinBot.update({ where: { id: bot.id }, data: { running: true, maxTrades: 2 } });
    // A reload starts a new client whose request guard knows nothing of the last page's calls: past
    // the panel's and wallet's windows (1 call per 2 s, docs/product.md#limits) the server takes them.
    await app.page.waitForTimeout(2_600);
    await app.page.reload();
    await order(1, 'missing').getByText(en.onBook.state.missing).waitFor();
    await order(2, 'refused').waitFor();
    await note.getByText('2 of 2 take profits are not on the exchange: 1 refused, 1 missing.').waitFor();
    await app.page.locator('.screen-header').getByText(en.onBook.badge).waitFor();
    expect(await app.page.getByText(en.token.waiting).count()).toBe(0);
    await settle(app.page);
    await screenshot(app.page, 'en', 'coin-orders-missing');
    await navigateInApp(app.page, '/portfolio');
    await app.page
      .getByTestId('plan-on-book-short')
      .getByText('Orders not on the exchange: 2 of 2')
      .waitFor();
    await settle(app.page);
    await screenshot(app.page, 'en', 'portfolio-orders-missing');

    // The same in Russian and Chinese.
    for (const [language, texts] of [
      ['ru', ru],
      ['cn', cn],
    ] as const) {
      await navigateInApp(app.page, '/profile');
      await app.page.locator(`button[data-language="${language}"]`).click();
      await app.page.waitForFunction(
        (lang) => document.documentElement.lang.startsWith(lang === 'cn' ? 'zh' : lang),
        language,
      );
      await navigateInApp(app.page, '/portfolio/show?coin=XRP');
      await order(1, 'missing').getByText(texts.onBook.state.missing).waitFor();
      await app.page.locator('.screen-header').getByText(texts.onBook.badge).waitFor();
      await note.waitFor();
      expect(await note.textContent()).toContain(texts.onBook.parts.missing.replace('{{count}}', '1'));
      await app.page.waitForFunction(() => !document.querySelector('.toast'), undefined, { timeout: 10_000 });
      await settle(app.page);
      await screenshot(app.page, language, 'coin-orders-missing');
    }
    expect(app.problems).toEqual([]);
    await app.close();
  }, 120_000);
});
