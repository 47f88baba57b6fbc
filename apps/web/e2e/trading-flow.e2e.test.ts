import { type SandboxExchangeHandle, startSandboxExchange, waveHistory } from '@gridbot/sandbox';
import { fundWallet, reconcileCoinBot } from '@gridbot/services';
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
});
