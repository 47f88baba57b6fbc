import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { queueKeyExpiryNotices, reconcileCoinBot } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

// Binance's rules for a key's IP whitelist and the 30-day trading term of a key without one
// (docs/security.md#exchange-keys), and keys of another exchange account (docs/grid.md#replacing-api-keys).

const DAY_MS = 86_400_000;
/** An address that is not ours: a key trusting only it refuses the installation. */
const FOREIGN_IP = '203.0.113.7';

let sandbox: SandboxExchangeHandle;
let t: TestApp;

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    markets: [
      {
        base: 'XRP',
        quote: 'USDT',
        tickSize: '0.0001',
        stepSize: '0.01',
        minNotional: '5',
        feed: { kind: 'fixed', price: '1' },
      },
    ],
  });
  t = await createTestApp({}, { sandboxUrl: sandbox.url });
}, 180_000);

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

const save = async (headers: Record<string, string>, body: object) =>
  t.app.inject({ method: 'POST', url: '/profile/api_key', headers, payload: body });

const setLanguage = (headers: Record<string, string>, language: string) =>
  t.app.inject({ method: 'POST', url: `/home/config/localization/set?data=${language}`, headers });

/** A user with saved keys, XRP in the portfolio, running, with an open lot and its take profit. */
const tradingUser = async (username: string, access: { ipWhitelist?: string[] } = {}) => {
  const user = await t.createUser({ username, feeBalance: '100' });
  const headers = await t.authHeader(user);
  const keys = sandbox.control.createAccount({ balances: { USDT: '1000' }, ...access });
  expect((await save(headers, { apiKey: keys.apiKey, secretKey: keys.secret })).statusCode).toBe(200);
  await t.app.inject({ method: 'POST', url: '/portfolio/add_coin/add?data_send=XRP', headers });
  const bot = await t.prisma.coinBot.findFirstOrThrow({ where: { userId: user.id, deletedAt: null } });
  await t.prisma.coinBot.update({ where: { id: bot.id }, data: { running: true } });
  expect((await reconcileCoinBot(t.ctx, { coinBotId: bot.id })).status).toBe('done');
  return { user, headers, keys, bot };
};

describe('the key check reports the IP restriction, the trading term and the IPs to whitelist', () => {
  it("reads ipRestrict and tradingAuthorityExpirationTime from the exchange, and shows the sandbox's view of our IP", async () => {
    const user = await t.createUser({ username: 'access_check' });
    const headers = await t.authHeader(user);
    const before = Date.now();
    const open = sandbox.control.createAccount({ balances: { USDT: '10' } });
    expect((await save(headers, { apiKey: open.apiKey, secretKey: open.secret })).statusCode).toBe(200);
    const first = (await t.app.inject({ method: 'GET', url: '/home/check_keys', headers })).json();
    expect(first.key.ipRestricted).toBe(false);
    expect(Date.parse(first.key.tradingExpiresAt)).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 1000);
    // The sandbox sees the installation at 127.0.0.1: what a key's whitelist must hold.
    expect(first.egress).toEqual({ ips: ['127.0.0.1'], source: 'discovered' });

    sandbox.control.setKeyAccess(open.apiKey, { ipWhitelist: ['127.0.0.1'] });
    const second = (await t.app.inject({ method: 'GET', url: '/home/check_keys', headers })).json();
    expect(second).toMatchObject({ connected: true, key: { ipRestricted: true, tradingExpiresAt: null } });
  });

  it('shows the operator’s EGRESS_IPS when set', async () => {
    const other = await createTestApp(
      { EGRESS_IPS: '198.51.100.4, 198.51.100.5' },
      { sandboxUrl: sandbox.url },
    );
    try {
      const user = await other.createUser({ username: 'egress_config' });
      const res = await other.app.inject({
        method: 'GET',
        url: '/home/check_keys',
        headers: await other.authHeader(user),
      });
      expect(res.json().egress).toEqual({ ips: ['198.51.100.4', '198.51.100.5'], source: 'config' });
    } finally {
      await other.close();
    }
  });

  it('reports a key whose trading term ended as API_KEY_TRADING_EXPIRED', async () => {
    const user = await t.createUser({ username: 'access_ended' });
    const headers = await t.authHeader(user);
    const keys = sandbox.control.createAccount({ balances: { USDT: '10' } });
    expect((await save(headers, { apiKey: keys.apiKey, secretKey: keys.secret })).statusCode).toBe(200);
    sandbox.control.setKeyAccess(keys.apiKey, { tradingExpiresAt: Date.now() - 1000 });
    const res = (await t.app.inject({ method: 'GET', url: '/home/check_keys', headers })).json();
    expect(res).toMatchObject({ connected: false, problem: 'API_KEY_TRADING_EXPIRED' });
    const refused = await save(headers, { apiKey: keys.apiKey, secretKey: keys.secret });
    expect(refused.json()).toMatchObject({ code: 'API_KEY_TRADING_EXPIRED' });
  });
});

describe('-2015 from an IP the key does not trust', () => {
  it.each([
    ['en', 'API Management'],
    ['ru', 'Управление API'],
    ['cn', 'API 管理'],
  ])('is its own refusal on save (%s), storing nothing', async (language, words) => {
    const user = await t.createUser({ username: `ip_save_${language}` });
    const headers = await t.authHeader(user);
    await setLanguage(headers, language);
    const keys = sandbox.control.createAccount({ balances: { USDT: '10' }, ipWhitelist: [FOREIGN_IP] });
    const res = await save(headers, { apiKey: keys.apiKey, secretKey: keys.secret });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'API_KEY_IP_NOT_ALLOWED' });
    expect(res.json().detail).toContain(words);
    expect(await t.prisma.exchangeAccount.count({ where: { userId: user.id } })).toBe(0);
  });

  it('is told apart while trading: the coin bot stops with API_KEY_IP_NOT_ALLOWED and the user is told once', async () => {
    const { user, keys, bot } = await tradingUser('ip_trading', { ipWhitelist: ['127.0.0.1'] });
    sandbox.control.setKeyAccess(keys.apiKey, { ipWhitelist: [FOREIGN_IP] });
    // The take profit fills: the next order (a new entry) meets the whitelist.
    sandbox.control.setPrice('XRP/USDT', '1.2');
    await reconcileCoinBot(t.ctx, { coinBotId: bot.id }).catch(() => undefined);
    await reconcileCoinBot(t.ctx, { coinBotId: bot.id }).catch(() => undefined);
    const row = await t.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } });
    expect(row.lastError).toBe('API_KEY_IP_NOT_ALLOWED');
    const notices = await t.prisma.notification.findMany({
      where: { userId: user.id, kind: 'coin_bot_error' },
    });
    expect(notices.map((n) => (n.data as { code: string }).code)).toEqual(['API_KEY_IP_NOT_ALLOWED']);
  });
});

describe('key expiry notices', () => {
  it('tells a few days before the end and when it has ended, once each, whoever runs the job', async () => {
    const user = await t.createUser({ username: 'expiry_notices' });
    const far = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const farUser = await t.createUser({ username: 'expiry_far' });
    await save(await t.authHeader(farUser), { apiKey: far.apiKey, secretKey: far.secret });
    const headers = await t.authHeader(user);
    // Binance's term only ever moves later (trading enabled again) or goes (IP restricted): this
    // key's trading was enabled 28 days ago, so it ends in a little over two days.
    const keys = sandbox.control.createAccount({
      balances: { USDT: '10' },
      tradingExpiresAt: Date.now() + 2 * DAY_MS + 60_000,
    });
    expect((await save(headers, { apiKey: keys.apiKey, secretKey: keys.secret })).statusCode).toBe(200);
    const notices = () =>
      t.prisma.notification.findMany({
        where: { userId: user.id, kind: { startsWith: 'api_key_' } },
        orderBy: { id: 'asc' },
      });
    await Promise.all([queueKeyExpiryNotices(t.ctx), queueKeyExpiryNotices(t.ctx)]);
    await queueKeyExpiryNotices(t.ctx);
    expect((await notices()).map((n) => [n.kind, (n.data as { daysLeft?: number }).daysLeft])).toEqual([
      ['api_key_expiring', 3],
    ]);

    // Time passes: the end is reached.
    sandbox.control.setKeyAccess(keys.apiKey, { tradingExpiresAt: Date.now() - 1000 });
    await Promise.all([queueKeyExpiryNotices(t.ctx), queueKeyExpiryNotices(t.ctx)]);
    await queueKeyExpiryNotices(t.ctx);
    const sent = await notices();
    expect(sent.map((n) => n.kind)).toEqual(['api_key_expiring', 'api_key_expired']);
    expect(sent[1]?.data).toMatchObject({ ips: ['127.0.0.1'] });
    const account = await t.prisma.exchangeAccount.findFirstOrThrow({ where: { userId: user.id } });
    expect(account.checkProblem).toBe('API_KEY_TRADING_EXPIRED');

    // Restricted to our IP on Binance: no end, no more notices.
    sandbox.control.setKeyAccess(keys.apiKey, { ipWhitelist: ['127.0.0.1'] });
    await queueKeyExpiryNotices(t.ctx);
    expect(await notices()).toHaveLength(2);
    // A key 30 days from its end is not told anything.
    expect(
      await t.prisma.notification.count({ where: { userId: farUser.id, kind: { startsWith: 'api_key_' } } }),
    ).toBe(0);
  });
});

describe('keys of another exchange account while coins have open deals', () => {
  it('asks first (409, nothing changed), then leaves the deals on the previous account with exact books', async () => {
    const { user, headers, keys, bot } = await tradingUser('other_account');
    const openLots = await t.prisma.lot.findMany({ where: { coinBotId: bot.id, closedAt: null } });
    expect(openLots).toHaveLength(1);
    expect(sandbox.control.orders(keys.apiKey).filter((o) => o.status === 'NEW')).not.toHaveLength(0);
    const account = await t.prisma.exchangeAccount.findFirstOrThrow({ where: { userId: user.id } });
    const other = sandbox.control.createAccount({ balances: { USDT: '500' } });

    await setLanguage(headers, 'ru');
    const asked = await save(headers, { apiKey: other.apiKey, secretKey: other.secret });
    expect(asked.statusCode).toBe(409);
    expect(asked.json().code).toBe('API_KEY_OTHER_ACCOUNT');
    expect(asked.json().detail).toContain('оставленные на прежнем аккаунте');
    expect((await t.prisma.exchangeAccount.findUniqueOrThrow({ where: { id: account.id } })).apiKey).toBe(
      keys.apiKey,
    );
    expect(await t.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } })).toMatchObject({
      running: true,
      deletedAt: null,
    });
    const pnlBefore = await t.prisma.dailyPnl.findMany({ where: { userId: user.id } });
    const lotsBefore = await t.prisma.lot.findMany({ where: { coinBotId: bot.id }, orderBy: { id: 'asc' } });

    const confirmed = await save(headers, {
      apiKey: other.apiKey,
      secretKey: other.secret,
      confirmAccountSwitch: true,
    });
    expect(confirmed.statusCode).toBe(200);
    // The previous account: its resting orders cancelled with its keys, its coin left there.
    expect(sandbox.control.orders(keys.apiKey).filter((o) => o.status === 'NEW')).toEqual([]);
    // The books: the old coin bot is retired with its lots as they were, no PnL booked.
    const retired = await t.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } });
    expect(retired).toMatchObject({ running: false, removalId: bot.id });
    expect(retired.deletedAt).not.toBeNull();
    expect(await t.prisma.lot.findMany({ where: { coinBotId: bot.id }, orderBy: { id: 'asc' } })).toEqual(
      lotsBefore,
    );
    expect(await t.prisma.dailyPnl.findMany({ where: { userId: user.id } })).toEqual(pnlBefore);
    expect(
      await t.prisma.order.count({ where: { coinBotId: bot.id, status: { in: ['pending', 'open'] } } }),
    ).toBe(0);
    // The coin page tells the truth: XRP is paused with no deals, nothing waits for a sell.
    const fresh = await t.prisma.coinBot.findFirstOrThrow({ where: { userId: user.id, deletedAt: null } });
    const coin = await t.app.inject({ method: 'POST', url: '/portfolio/XRP', headers });
    expect(coin.statusCode).toBe(200);
    expect(coin.json()).toMatchObject({
      coin: { coinUserId: fresh.id, state: 'paused', stats: { openDeals: 0 } },
      ladder: { openLots: 0, waiting: false, takeProfits: [] },
    });
    expect(fresh).toMatchObject({ coin: 'XRP', running: false, maxTrades: bot.maxTrades });
    expect(fresh.orderSize.toString()).toBe(bot.orderSize.toString());
    const activity = await t.prisma.coinActivity.findFirstOrThrow({
      where: { coinBotId: fresh.id, kind: 'keys_changed' },
    });
    expect(activity.data).toMatchObject({ reason: 'other_account', lotsLeft: 1 });
    expect(
      (await t.prisma.exchangeAccount.findUniqueOrThrow({ where: { id: account.id } })).exchangeUid,
    ).toBe(String(sandbox.control.account(other.apiKey).uid));
  });

  it('does not ask for a new key of the same account', async () => {
    const { headers, keys, bot } = await tradingUser('same_account');
    const second = sandbox.control.addApiKey(keys.apiKey);
    const res = await save(headers, { apiKey: second.apiKey, secretKey: second.secret });
    expect(res.statusCode).toBe(200);
    expect(await t.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } })).toMatchObject({
      deletedAt: null,
      running: true,
    });
  });
});
