import { randomBytes, randomUUID } from 'node:crypto';
import type { User } from '@gridbot/db';
import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { demoXpub, fundWallet, grantLicense, reconcileCoinBot } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

/*
 * A user with keys on Binance, Bybit and OKX (docs/grid.md#coins-on-several-exchanges): one
 * portfolio, the same coin as one coin bot per exchange, every coin call naming its exchange once
 * the coin is on several, and money to the exchange account the user picks. Each venue is the
 * sandbox's own dialect over HTTP.
 */
let sandbox: SandboxExchangeHandle;
let t: TestApp;

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    markets: ['ETH', 'ADA', 'SOL'].map((base) => ({
      base,
      quote: 'USDT',
      tickSize: '0.0001',
      stepSize: '0.1',
      minNotional: '5',
      feed: { kind: 'fixed' as const, price: '0.5' },
    })),
  });
  t = await createTestApp(
    { WALLET_XPUB: demoXpub(), WITHDRAW_FEE_USDT: '1', WITHDRAW_ADDRESS_LOCK_HOURS: '0' },
    { sandboxUrl: sandbox.url, sandboxDialectUrls: { bybit: sandbox.bybitUrl, okx: sandbox.okxUrl } },
  );
}, 60_000);

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

type Venue = 'binance' | 'bybit' | 'okx';

/** A user with a licence, a fee balance and sandbox keys saved through the API on each venue. */
const trader = async (username: string, venues: Venue[]) => {
  const user = await t.createUser({ username });
  await grantLicense(t.ctx, { userId: user.id, level: 'PRO1' });
  // 40 USDT on the main balance, 10 on the fee balance.
  await fundWallet(t.prisma, { userId: user.id, deposit: '50', fee: '10', key: `multi:${user.id}` });
  const headers = await t.authHeader(user);
  for (const exchange of venues) {
    const okx = exchange === 'okx';
    const keys = sandbox.control.createAccount({
      balances: { USDT: '500' },
      ...(okx
        ? {
            apiKey: randomUUID(),
            secret: randomBytes(16).toString('hex'),
            passphrase: 'Multi-Venue1',
          }
        : {}),
    });
    const saved = await t.app.inject({
      method: 'POST',
      url: '/profile/api_key',
      headers,
      payload: {
        exchange,
        apiKey: keys.apiKey,
        secretKey: keys.secret,
        ...(okx ? { passphrase: 'Multi-Venue1' } : {}),
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
  }
  return { user, headers };
};

const call = (headers: Record<string, string>, method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

const botsOf = (user: User) =>
  t.prisma.coinBot.findMany({
    where: { userId: user.id, deletedAt: null },
    include: { exchangeAccount: { select: { exchange: true } } },
    orderBy: { id: 'asc' },
  });

describe('keys on several exchanges', () => {
  it('adds the same coin on two exchanges as two coin bots, and every coin call names its exchange', async () => {
    const { user, headers } = await trader('multi_add', ['binance', 'bybit']);

    // An add that does not say where is refused while the user has keys on two exchanges.
    const unnamed = await call(headers, 'POST', '/portfolio/add_coin/add?data_send=ETH');
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json()).toMatchObject({ code: 'EXCHANGE_REQUIRED' });
    expect(await botsOf(user)).toHaveLength(0);

    // The add screen lists the chosen account's markets and says which coins it already holds.
    const onBinance = await call(headers, 'POST', '/portfolio/add_coin/add?data_send=ETH&exchange=binance');
    expect(onBinance.statusCode, onBinance.body).toBe(200);
    expect(onBinance.json().coin).toMatchObject({ coin: 'ETH', exchange: 'binance' });
    const bybitList = await call(headers, 'GET', '/portfolio/add_coin?exchange=bybit');
    expect(bybitList.json()).toMatchObject({ exchange: 'bybit', accounts: ['binance', 'bybit'] });
    expect(bybitList.json().coins.find((c: { coin: string }) => c.coin === 'ETH').inPortfolio).toBe(false);
    const binanceList = await call(headers, 'GET', '/portfolio/add_coin?exchange=binance');
    expect(binanceList.json().coins.find((c: { coin: string }) => c.coin === 'ETH').inPortfolio).toBe(true);

    const onBybit = await call(headers, 'POST', '/portfolio/add_coin/add?data_send=ETH&exchange=bybit');
    expect(onBybit.statusCode, onBybit.body).toBe(200);
    expect(onBybit.json().coin).toMatchObject({ coin: 'ETH', exchange: 'bybit' });
    const again = await call(headers, 'POST', '/portfolio/add_coin/add?data_send=ETH&exchange=bybit');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('COIN_ALREADY_ADDED');
    // No keys on OKX: nothing to add there.
    const noOkx = await call(headers, 'POST', '/portfolio/add_coin/add?data_send=ADA&exchange=okx');
    expect(noOkx.statusCode).toBe(422);
    expect(noOkx.json().code).toBe('API_KEYS_MISSING');
    expect((await botsOf(user)).map((b) => b.exchangeAccount.exchange)).toEqual(['binance', 'bybit']);

    // One portfolio: both coin bots, each with its exchange.
    const portfolio = await call(headers, 'POST', '/portfolio/');
    expect(
      portfolio.json().coins.map((c: { coin: string; exchange: string }) => `${c.coin}@${c.exchange}`),
    ).toEqual(['ETH@binance', 'ETH@bybit']);

    // The coin page, its chart and its settings need the exchange now.
    const ambiguous = await call(headers, 'POST', '/portfolio/ETH');
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json().code).toBe('EXCHANGE_REQUIRED');
    const page = await call(headers, 'POST', '/portfolio/ETH?exchange=bybit');
    expect(page.statusCode).toBe(200);
    expect(page.json().coin).toMatchObject({ exchange: 'bybit', coinUserId: onBybit.json().coin.coinUserId });
    const edit = await call(headers, 'POST', '/portfolio/setting/edit', {
      coin: 'ETH',
      exchange: 'bybit',
      orderSize: '12',
      stepPct: '1',
      stepIncreasePct: '0.1',
      maxTrades: 3,
      dry: false,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const [binanceBot, bybitBot] = await botsOf(user);
    expect(binanceBot?.orderSize.toFixed()).not.toBe('12');
    expect(bybitBot?.orderSize.toFixed()).toBe('12');
    const unnamedEdit = await call(headers, 'POST', '/portfolio/setting/reset_setting', { coin: 'ETH' });
    expect(unnamedEdit.statusCode).toBe(400);
    expect((await botsOf(user))[1]?.orderSize.toFixed()).toBe('12');

    // Start and pause per coin and exchange; "start all" on one exchange starts only its coins.
    expect((await call(headers, 'POST', '/home/start?coin_name=ETH')).json().code).toBe('EXCHANGE_REQUIRED');
    const started = await call(headers, 'POST', '/home/start?exchange=bybit');
    expect(started.statusCode, started.body).toBe(200);
    expect(
      started.json().coins.map((c: { exchange: string; running: boolean }) => [c.exchange, c.running]),
    ).toEqual([
      ['binance', false],
      ['bybit', true],
    ]);
    const paused = await call(headers, 'POST', '/home/pause?coin_name=ETH&exchange=bybit');
    expect(paused.json().coins.every((c: { running: boolean }) => !c.running)).toBe(true);

    // The panel lists both, each with its exchange.
    const panel = await call(headers, 'POST', '/home/');
    expect(panel.json().coins.map((c: { exchange: string }) => c.exchange)).toEqual(['binance', 'bybit']);

    // Removing the Bybit coin leaves the Binance one; the coin name alone is enough again.
    const removed = await call(headers, 'POST', '/portfolio/setting/delete?data_send=ETH&exchange=bybit');
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await botsOf(user)).map((b) => b.exchangeAccount.exchange)).toEqual(['binance']);
    expect((await call(headers, 'POST', '/portfolio/ETH')).json().coin.exchange).toBe('binance');
  });

  it("shows every exchange's keys in the profile and checks the keys of the exchange asked", async () => {
    const { headers } = await trader('multi_profile', ['binance', 'okx']);
    const profile = await call(headers, 'POST', '/profile/');
    expect(profile.json().apiKeys.map((k: { exchange: string }) => k.exchange)).toEqual(['binance', 'okx']);
    expect(profile.json().apiKey.exchange).toBe('binance');
    const okx = await call(headers, 'GET', '/home/check_keys?exchange=okx');
    expect(okx.json()).toMatchObject({ exchange: 'okx', connected: true, usdtBalance: '500' });
    const first = await call(headers, 'GET', '/home/check_keys');
    expect(first.json().exchange).toBe('binance');
    const bad = await call(headers, 'GET', '/home/check_keys?exchange=kraken');
    expect(bad.statusCode).toBe(400);
  });

  it("withdraws to the chosen exchange's TRC20 deposit address, never guessing", async () => {
    const { user, headers } = await trader('multi_withdraw', ['binance', 'okx']);
    const withdraw = (query: string) =>
      t.app.inject({
        method: 'POST',
        url: `/wallet/withdraw_money?${query}`,
        headers: { ...headers, 'idempotency-key': randomUUID() },
      });
    const unnamed = await withdraw('summ=20&to=exchange');
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().code).toBe('EXCHANGE_REQUIRED');
    expect(await t.prisma.withdrawal.count({ where: { userId: user.id } })).toBe(0);

    const okx = await withdraw('summ=20&to=exchange&exchange=okx');
    expect(okx.statusCode, okx.body).toBe(200);
    expect(okx.json().withdrawal).toMatchObject({ type: 'withdraw_exchange', receives: '19' });
    const okxAccount = await t.prisma.exchangeAccount.findUniqueOrThrow({
      where: { userId_exchange: { userId: user.id, exchange: 'okx' } },
    });
    const { address } = await (await t.ctx.exchanges.forAccount(okxAccount.id)).fetchDepositAddress(
      'USDT',
      'TRC20',
    );
    expect(okx.json().withdrawal.address).toBe(address);
    const binanceAccount = await t.prisma.exchangeAccount.findUniqueOrThrow({
      where: { userId_exchange: { userId: user.id, exchange: 'binance' } },
    });
    const binance = await (await t.ctx.exchanges.forAccount(binanceAccount.id)).fetchDepositAddress(
      'USDT',
      'TRC20',
    );
    expect(binance.address).not.toBe(address);
  });
});

/*
 * The trading journey on each venue, over the API as the mini app calls it and against the venue's
 * own sandbox dialect over HTTP: save keys, add a coin, preview and save its settings, start, buy,
 * average down, take a profit, dry, pause, delete — the books equal the exchange's at the end.
 */
describe.each(['binance', 'bybit', 'okx'] as const)('the trading journey on %s', (venue) => {
  it('saves keys, adds a coin, previews, starts, buys, takes a profit, dries, pauses and deletes it', async () => {
    sandbox.control.setPrice('SOL/USDT', '1');
    const { user, headers } = await trader(`journey_${venue}`, [venue]);
    // Every venue states its minimum order (OKX lists a minimum quantity only: minSz at the last price).
    const listed = await call(headers, 'GET', '/portfolio/add_coin?search=SOL');
    expect(listed.json()).toMatchObject({ exchange: venue, accounts: [venue] });
    expect(listed.json().coins[0].minOrderUsdt).toMatch(/^\d+(\.\d+)?$/);
    const added = await call(headers, 'POST', '/portfolio/add_coin/add?data_send=SOL');
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().coin).toMatchObject({ coin: 'SOL', exchange: venue, running: false });
    const settings = {
      coin: 'SOL',
      orderSize: '10',
      stepPct: '1',
      stepIncreasePct: '0.1',
      maxTrades: 3,
      dry: false,
    };
    const preview = await call(headers, 'POST', '/portfolio/setting/edit', { ...settings, preview: true });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json()).toMatchObject({ saved: false, warnings: [] });
    const saved = await call(headers, 'POST', '/portfolio/setting/edit', settings);
    expect(saved.json()).toMatchObject({
      saved: true,
      coin: { settings: { orderSize: '10', maxTrades: 3 } },
    });

    const started = await call(headers, 'POST', '/home/start?coin_name=SOL');
    expect(started.statusCode, started.body).toBe(200);
    const bot = await t.prisma.coinBot.findFirstOrThrow({ where: { userId: user.id, coin: 'SOL' } });
    expect(bot.running).toBe(true);
    const reconcile = async () =>
      expect((await reconcileCoinBot(t.ctx, { coinBotId: bot.id })).status).toBe('done');
    const openLots = () => t.prisma.lot.count({ where: { coinBotId: bot.id, closedAt: null } });
    await reconcile(); // the entry at 1
    expect(await openLots()).toBe(1);
    sandbox.control.setPrice('SOL/USDT', '0.99'); // the averaging buy fills
    await reconcile();
    expect(await openLots()).toBe(2);
    sandbox.control.setPrice('SOL/USDT', '1'); // the second lot's take profit fills
    await reconcile();
    expect(await openLots()).toBe(1);
    const closed = await t.prisma.lot.findMany({ where: { coinBotId: bot.id, closedAt: { not: null } } });
    expect(closed).toHaveLength(1);
    expect(closed[0]!.pnl!.gt(0)).toBe(true);
    const page = await call(headers, 'POST', '/portfolio/SOL');
    expect(page.json().coin.stats).toMatchObject({ closedTrades: 1, openDeals: 1 });

    // Dry: sells only, so no buy rests; paused: nothing rests; deleted: the lot is left on the exchange.
    const client = await t.ctx.exchanges.forAccount(bot.exchangeAccountId);
    const dry = await call(headers, 'GET', '/portfolio/set_coin_status?coin_name=SOL&status=dry');
    expect(dry.statusCode, dry.body).toBe(200);
    await reconcile();
    expect((await client.fetchOpenOrders('SOL/USDT')).map((o) => o.side)).toEqual(['sell']);
    const paused = await call(headers, 'POST', '/home/pause?coin_name=SOL');
    expect(paused.statusCode).toBe(200);
    await reconcile();
    expect(await client.fetchOpenOrders('SOL/USDT')).toEqual([]);
    const removed = await call(headers, 'POST', '/portfolio/setting/delete?data_send=SOL');
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toMatchObject({ coin: 'SOL', leftOnExchange: { lots: 1 } });

    // The books equal the exchange's: every trade of the account is one of our fills, and the
    // coin it holds is what the open lot (and any carry) holds.
    const trades = await client.fetchMyTrades('SOL/USDT');
    const fills = await t.prisma.fill.findMany({ where: { coinBotId: bot.id } });
    expect(fills.map((f) => f.exchangeTradeId).sort()).toEqual(trades.map((tr) => tr.id).sort());
    const [lot] = await t.prisma.lot.findMany({ where: { coinBotId: bot.id, closedAt: null } });
    const final = await t.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } });
    const held = (await client.fetchBalance()).SOL?.total;
    expect(held?.toFixed()).toBe(lot!.qty.plus(final.carryQty).toFixed());
  });
});
