import { type SandboxExchangeHandle, startSandboxExchange, waveHistory } from '@gridbot/sandbox';
import { fundWallet, reconcileCoinBot, saveExchangeKeys } from '@gridbot/services';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, navigateInApp, openAppPage, screenshot, settle } from './support/browser';
import { type Stack, startStack } from './support/stack';

// A new user's whole way to a running bot, from the mini app only, against the real API, the real
// engine and the sandbox exchange over HTTP: keys, add a coin, preview and backtest settings, save,
// start, a buy on the chart after the price moves, dry, pause. No fixtures.
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
        // The test crosses each order once and expects it filled: whole fills (apps/sandbox liquidity).
        liquidity: 'infinite' as const,
      },
    ],
  });
  // A day of past candles the backtest can trade and the chart can draw.
  sandbox.exchange.market('XRPUSDT').history.load(
    waveHistory(0.5, {
      slow: 0.05,
      slowPeriod: 41,
      fast: 0.015,
      fastPeriod: 6,
      wick: 0.002,
      volume: '1000',
      trades: 12,
    }),
  );
  [stack, browser] = await Promise.all([startStack({ sandboxUrl: sandbox.url }), launchBrowser()]);
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await sandbox?.close();
});

describe('a new user trades from the mini app', () => {
  it('connects keys, adds a coin, previews and backtests settings, saves, starts, sees the buy on the chart, dries and pauses', async () => {
    const user = await stack.createUser({ username: 'nora_grid', firstName: 'Nora' });
    const keys = sandbox.control.createAccount({ balances: { USDT: '500' } });
    await fundWallet(stack.prisma, { userId: user.id, deposit: '20', fee: '20', key: `flow:${user.id}` });
    const app = await openAppPage(browser, { telegram: false });
    app.page.on('dialog', (dialog) => void dialog.accept());
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.getByRole('heading', { level: 1, name: 'Hi, Nora' }).waitFor();

    // 1. Keys.
    await navigateInApp(app.page, '/profile/api-key');
    await app.page.getByLabel('API key').fill(keys.apiKey);
    await app.page.getByLabel('Secret key').fill(keys.secret);
    await app.page.getByRole('button', { name: 'Save keys' }).click();
    await app.page.getByText('API keys saved').waitFor();

    // 2. Add XRP from the exchange's market list.
    await navigateInApp(app.page, '/portfolio/add');
    await app.page.getByPlaceholder('Search coin').fill('xrp');
    await app.page.locator('.market[data-coin="XRP"] > button').click();
    await app.page.getByRole('button', { name: 'Add XRP to the portfolio' }).click();
    await app.page.getByText('XRP is in your portfolio, paused').waitFor();
    const bot = await stack.prisma.coinBot.findFirstOrThrow({ where: { userId: user.id, coin: 'XRP' } });
    expect(bot.running).toBe(false);

    // 3. Settings: a bad value is refused in place and changes nothing; the preview shows the ladder.
    await app.page.getByRole('link', { name: 'Edit settings' }).click();
    await app.page.getByLabel('Order size, USDT').fill('1');
    await app.page.getByText('Must be at least 6').waitFor();
    await app.page.getByLabel('Order size, USDT').fill('10');
    await app.page.getByLabel('Step, %').fill('1');
    await app.page.getByLabel('Step increase, %').fill('0.1');
    await app.page.getByLabel('Maximum trades').fill('3');
    await app.page.getByText('Capital at the purchase limit').first().waitFor();
    expect((await stack.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } })).maxTrades).toBe(
      bot.maxTrades,
    );

    // 4. Backtest these settings over the coin's past day.
    await app.page.getByRole('button', { name: 'Run backtest' }).click();
    await app.page.getByText('Realized profit').first().waitFor({ timeout: 30_000 });
    await settle(app.page);
    await screenshot(app.page, 'en', 'flow-edit-backtest');

    // 5. Save.
    await app.page.getByRole('button', { name: 'Save settings' }).click();
    await app.page.getByText('Settings saved').waitFor();
    const saved = await stack.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } });
    expect([saved.orderSize.toFixed(), saved.stepPct.toFixed(), saved.maxTrades]).toEqual(['10', '1', 3]);

    // 6. Start the coin from its page; the engine's entry buy fills at 0.5.
    await navigateInApp(app.page, '/portfolio/show?coin=XRP');
    await app.page.getByRole('button', { name: 'Active', exact: true }).click();
    await expect
      .poll(async () => (await stack.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } })).running)
      .toBe(true);
    await reconcileCoinBot(stack.ctx, { coinBotId: bot.id });
    await reconcileCoinBot(stack.ctx, { coinBotId: bot.id });
    expect(await stack.prisma.lot.count({ where: { coinBotId: bot.id, closedAt: null } })).toBe(1);

    // 7. The price falls 1.2 %: the resting buy fills; the chart shows both buys as markers.
    sandbox.control.setPrice('XRPUSDT', '0.494');
    await reconcileCoinBot(stack.ctx, { coinBotId: bot.id });
    await reconcileCoinBot(stack.ctx, { coinBotId: bot.id });
    expect(await stack.prisma.lot.count({ where: { coinBotId: bot.id, closedAt: null } })).toBe(2);
    const chart = app.page.locator('[data-testid="price-chart"]');
    await expect.poll(async () => chart.getAttribute('data-markers'), { timeout: 40_000 }).toBe('2');
    // The resting ladder: the next buy and a take profit per open lot.
    expect(await chart.getAttribute('data-lines')).toBe('3');
    await settle(app.page);
    await screenshot(app.page, 'en', 'flow-coin-chart-buys');

    // 8. Dry: no new buys, the lots stay for their take profits.
    await app.page.getByRole('button', { name: 'Dry', exact: true }).click();
    await expect
      .poll(async () => (await stack.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } })).dry)
      .toBe(true);
    await app.page.getByText('Drying is on for this coin: it only sells its open lots.').waitFor();

    // 9. Pause (confirmed): the bot stops, its lots stay.
    await app.page.getByRole('button', { name: 'Paused', exact: true }).click();
    await expect
      .poll(async () => (await stack.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } })).running)
      .toBe(false);
    expect(await stack.prisma.lot.count({ where: { coinBotId: bot.id, closedAt: null } })).toBe(2);

    // 10. From the panel: global drying on and off, then every coin's own dry flag cleared in bulk.
    await navigateInApp(app.page, '/');
    await app.page.getByText('Coins dried by their own setting: 1').waitFor();
    const dryAll = app.page.getByRole('switch', { name: 'Drying mode for all coins' });
    await dryAll.click();
    await app.page.getByText('Drying mode is on for all coins').waitFor();
    await expect
      .poll(async () => (await stack.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).dryAll)
      .toBe(true);
    await expect.poll(async () => dryAll.getAttribute('aria-checked')).toBe('true');
    await dryAll.click();
    await expect
      .poll(async () => (await stack.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).dryAll)
      .toBe(false);
    await app.page.getByRole('button', { name: 'Activate every coin' }).click();
    await app.page.getByText('Every coin buys again').waitFor();
    expect((await stack.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } })).dry).toBe(false);
    await app.page.getByText('Coins dried by their own setting: 1').waitFor({ state: 'detached' });
    expect(app.problems).toEqual([]);
    await app.close();

    // 11. Every trading screen with this user's real records, in each language (look at them:
    // artifacts/screenshots/<language>/real-*.png).
    const screens: Array<[string, string]> = [
      ['/', 'real-panel'],
      ['/portfolio', 'real-portfolio'],
      ['/portfolio/show?coin=XRP', 'real-coin'],
      ['/portfolio/edit?coin=XRP', 'real-coin-settings'],
      ['/portfolio/add', 'real-add-coin'],
      ['/pnl-stat', 'real-pnl'],
      ['/profile/api-key', 'real-api-key'],
    ];
    for (const language of ['en', 'ru', 'cn']) {
      await stack.prisma.userConfig.upsert({
        where: { userId_name: { userId: user.id, name: 'localization' } },
        create: { userId: user.id, name: 'localization', value: language },
        update: { value: language },
      });
      const shot = await openAppPage(browser, { telegram: false });
      await shot.page.goto(stack.launchUrlFor(user));
      await shot.page.locator('nav.tabbar').waitFor();
      for (const [path, name] of screens) {
        await navigateInApp(shot.page, path);
        // The screen's code and data arrive after the URL changes: the old screen stays until then.
        await shot.page.waitForLoadState('networkidle');
        await settle(shot.page);
        await screenshot(shot.page, language, name);
      }
      expect(shot.problems).toEqual([]);
      await shot.close();
    }
  }, 300_000);

  it('sells a deal now from the coin page: the confirmation shows the expected proceeds, the bot sells it', async () => {
    // docs/grid.md#deal-controls. A running XRP bot with one deal: 20 XRP bought at 0.5 for 10 USDT.
    // The first journey left the price at 0.494: this deal is bought and sold at 0.5.
    sandbox.control.setPrice('XRPUSDT', '0.5');
    const user = await stack.createUser({ username: 'sam_sells', firstName: 'Sam' });
    const keys = sandbox.control.createAccount({ balances: { USDT: '500' } });
    await fundWallet(stack.prisma, { userId: user.id, deposit: '20', fee: '20', key: `sell:${user.id}` });
    await saveExchangeKeys(stack.ctx, {
      userId: user.id,
      exchange: 'binance',
      apiKey: keys.apiKey,
      secretKey: keys.secret,
    });
    const account = await stack.prisma.exchangeAccount.findFirstOrThrow({ where: { userId: user.id } });
    const bot = await stack.prisma.coinBot.create({
      data: {
        userId: user.id,
        exchangeAccountId: account.id,
        coin: 'XRP',
        symbol: 'XRP/USDT',
        orderSize: '10',
        stepPct: '1',
        stepIncreasePct: '0.1',
        maxTrades: 3,
        running: true,
        startedAt: new Date(),
      },
    });
    await reconcileCoinBot(stack.ctx, { coinBotId: bot.id });
    // Dry from here: after the sale the coin buys nothing, so the page shows the sale's end.
    await stack.prisma.coinBot.update({ where: { id: bot.id }, data: { dry: true } });
    await reconcileCoinBot(stack.ctx, { coinBotId: bot.id });
    expect(await stack.prisma.lot.count({ where: { coinBotId: bot.id, closedAt: null } })).toBe(1);

    const app = await openAppPage(browser, { telegram: false });
    const asked: string[] = [];
    app.page.on('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await app.page.goto(stack.launchUrlFor(user));
    await app.page.locator('nav.tabbar').waitFor();
    await navigateInApp(app.page, '/portfolio/show?coin=XRP');
    await app.page.locator('.deal[data-lot="1"] .deal__head').click();
    await app.page.getByRole('button', { name: 'Sell now at market' }).click();
    // 19.9 XRP (the lot on the 0.1 step) at the best bid 0.5, less 0.1 %: ≈ 9.94 USDT.
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]).toContain('≈ 9.94 USDT for 19.9 XRP at 0.5');
    expect(asked[0]).toContain('An estimate from the best bid');
    // Until the bot has sold it, the deal says it is being sold.
    await app.page.locator('[data-pending-sale="1"]').waitFor();
    const command = await stack.prisma.dealCommand.findFirstOrThrow({ where: { coinBotId: bot.id } });
    expect(command).toMatchObject({ kind: 'sell_lot', status: 'pending', lotSeqs: [1] });
    await settle(app.page);
    await screenshot(app.page, 'en', 'deal-sell-pending');
    await app.page.locator('.deal-controls[data-pending="sell_lot"]').scrollIntoViewIfNeeded();
    await screenshot(app.page, 'en', 'deal-controls-pending');

    await reconcileCoinBot(stack.ctx, { coinBotId: bot.id });
    await app.page.locator('[data-outcome="done"]').waitFor({ timeout: 20_000 });
    await app.page.getByText('Lot 1 sold at market').first().waitFor();
    expect(await stack.prisma.lot.count({ where: { coinBotId: bot.id, closedAt: null } })).toBe(0);
    expect(sandbox.control.trades(keys.apiKey, 'XRP/USDT').filter((t) => !t.isBuyer)).toHaveLength(1);
    await app.page.locator('.deal-controls').scrollIntoViewIfNeeded();
    await settle(app.page);
    await screenshot(app.page, 'en', 'deal-sold');
    expect(app.problems).toEqual([]);
    await app.close();
  }, 120_000);
});
