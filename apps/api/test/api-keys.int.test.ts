import { randomBytes, randomUUID } from 'node:crypto';
import { errorCatalogue } from '@gridbot/contracts';
import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

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
        stepSize: '0.1',
        minNotional: '5',
        feed: { kind: 'fixed', price: '0.5' },
      },
    ],
  });
  t = await createTestApp(
    {},
    { sandboxUrl: sandbox.url, sandboxDialectUrls: { bybit: sandbox.bybitUrl, okx: sandbox.okxUrl } },
  );
}, 60_000);

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

const save = async (headers: Record<string, string>, body: object) =>
  t.app.inject({ method: 'POST', url: '/profile/api_key', headers, payload: body });

const check = async (headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: '/home/check_keys', headers });

describe('POST /profile/api_key', () => {
  it('checks the keys on the exchange, stores the secret sealed and answers with masked keys only', async () => {
    const user = await t.createUser({ username: 'keys_ok' });
    const keys = sandbox.control.createAccount({ balances: { USDT: '250' } });
    const res = await save(await t.authHeader(user), { apiKey: keys.apiKey, secretKey: keys.secret });
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({
      exchange: 'binance',
      apiKeyMasked: `${keys.apiKey.slice(0, 4)}…${keys.apiKey.slice(-4)}`,
      secretKeyMasked: `••••${keys.secret.slice(-4)}`,
      permissions: { spot: true, withdraw: false },
      connected: true,
    });
    expect(res.body).not.toContain(keys.secret);
    expect(res.body).not.toContain(keys.apiKey);

    const stored = await t.prisma.exchangeAccount.findUniqueOrThrow({
      where: { userId_exchange: { userId: user.id, exchange: 'binance' } },
    });
    expect(stored.mode).toBe('sandbox');
    expect(Buffer.from(stored.secretCipher).toString('latin1')).not.toContain(keys.secret);
    // The sealed secret opens to the secret the user gave, so the engine can trade with it.
    const client = await t.ctx.exchanges.forAccount(stored.id);
    expect((await client.fetchBalance()).USDT?.free.toFixed()).toBe('250');
  });

  it('refuses keys that can withdraw, that cannot trade spot, or that the exchange does not know, storing nothing', async () => {
    const user = await t.createUser({ username: 'keys_refused' });
    const headers = await t.authHeader(user);
    const withdraw = sandbox.control.createAccount({ permissions: { spot: true, withdrawals: true } });
    const noSpot = sandbox.control.createAccount({ permissions: { spot: false, withdrawals: false } });

    const a = await save(headers, { apiKey: withdraw.apiKey, secretKey: withdraw.secret });
    expect(a.statusCode).toBe(422);
    expect(a.json().code).toBe('API_KEY_WITHDRAW_ENABLED');

    await t.app.inject({ method: 'POST', url: '/home/config/localization/set?data=ru', headers });
    const b = await save(headers, { apiKey: noSpot.apiKey, secretKey: noSpot.secret });
    expect(b.statusCode).toBe(422);
    expect(b.json()).toMatchObject({
      code: 'API_KEY_NO_SPOT',
      message: 'API keys need spot trading permission enabled',
    });
    expect(b.json().detail).toContain('спотовую');

    const c = await save(headers, { apiKey: 'A'.repeat(64), secretKey: 'B'.repeat(64) });
    expect(c.statusCode).toBe(422);
    expect(c.json().code).toBe('API_KEY_INVALID');

    // A right key with a wrong secret: the signature fails.
    const d = await save(headers, { apiKey: noSpot.apiKey, secretKey: 'C'.repeat(64) });
    expect(d.statusCode).toBe(422);
    expect(d.json().code).toBe('API_KEY_INVALID');

    expect(await t.prisma.exchangeAccount.count({ where: { userId: user.id } })).toBe(0);
  });

  it('validates the text of the keys before calling the exchange, in the user language', async () => {
    const user = await t.createUser({ username: 'keys_invalid_text' });
    const headers = await t.authHeader(user);
    await t.app.inject({ method: 'POST', url: '/home/config/localization/set?data=cn', headers });
    const short = await save(headers, { apiKey: 'abc', secretKey: 'x'.repeat(64) });
    expect(short.statusCode).toBe(400);
    expect(short.json().code).toBe('VALIDATION');
    expect(short.json().issues.map((i: { path: string }) => i.path)).toContain('body.apiKey');
    expect(short.json().detail).toMatch(/[\u4e00-\u9fff]/);

    const symbols = await save(headers, { apiKey: `${'a'.repeat(60)}-_!?`, secretKey: 'x'.repeat(64) });
    expect(symbols.statusCode).toBe(400);
    const exchange = await save(headers, {
      exchange: 'kraken',
      apiKey: 'a'.repeat(64),
      secretKey: 'x'.repeat(64),
    });
    expect(exchange.statusCode).toBe(400);
    expect(await t.prisma.exchangeAccount.count({ where: { userId: user.id } })).toBe(0);
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/profile/api_key', payload: {} });
    expect(res.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/home/check_keys' })).statusCode).toBe(401);
  });

  it('answers 502 and stores nothing when the exchange does not answer', async () => {
    const down = await createTestApp({}, { sandboxUrl: 'http://127.0.0.1:9' });
    try {
      const user = await down.createUser({ username: 'keys_down' });
      const res = await down.app.inject({
        method: 'POST',
        url: '/profile/api_key',
        headers: await down.authHeader(user),
        payload: { apiKey: 'a'.repeat(64), secretKey: 'b'.repeat(64) },
      });
      expect(res.statusCode).toBe(502);
      expect(res.json().code).toBe('EXCHANGE_UNAVAILABLE');
      expect(await down.prisma.exchangeAccount.count()).toBe(0);
    } finally {
      await down.close();
    }
  });

  it('replacing the keys keeps the account and its coin bots, which trade with the new keys', async () => {
    const user = await t.createUser({ username: 'keys_replace' });
    const headers = await t.authHeader(user);
    const first = sandbox.control.createAccount({ balances: { USDT: '100' } });
    const second = sandbox.control.createAccount({ balances: { USDT: '300' } });
    expect((await save(headers, { apiKey: first.apiKey, secretKey: first.secret })).statusCode).toBe(200);
    const account = await t.prisma.exchangeAccount.findFirstOrThrow({ where: { userId: user.id } });
    const bot = await t.prisma.coinBot.create({
      data: {
        userId: user.id,
        exchangeAccountId: account.id,
        coin: 'XRP',
        symbol: 'XRP/USDT',
        orderSize: '10',
        stepPct: '1',
        stepIncreasePct: '0.1',
        maxTrades: 3,
      },
    });
    const before = await t.ctx.exchanges.forAccount(account.id);

    const replaced = await save(headers, { apiKey: second.apiKey, secretKey: second.secret });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().apiKeyMasked).toBe(`${second.apiKey.slice(0, 4)}…${second.apiKey.slice(-4)}`);
    const after = await t.prisma.exchangeAccount.findMany({ where: { userId: user.id } });
    expect(after).toHaveLength(1);
    expect(after[0]?.id).toBe(account.id);
    expect((await t.prisma.coinBot.findUniqueOrThrow({ where: { id: bot.id } })).exchangeAccountId).toBe(
      account.id,
    );
    const client = await t.ctx.exchanges.forAccount(account.id);
    expect(client).not.toBe(before);
    expect((await client.fetchBalance()).USDT?.free.toFixed()).toBe('300');

    // A failed replacement leaves the working keys in place.
    const refused = await save(headers, { apiKey: 'Z'.repeat(64), secretKey: 'Y'.repeat(64) });
    expect(refused.statusCode).toBe(422);
    const kept = await t.prisma.exchangeAccount.findUniqueOrThrow({ where: { id: account.id } });
    expect(kept.apiKey).toBe(second.apiKey);
  });
});

describe('keys of Bybit and OKX', () => {
  it('saves Bybit keys after checking them on Bybit, and the engine trades with them', async () => {
    const user = await t.createUser({ username: 'keys_bybit' });
    const keys = sandbox.control.createAccount({ balances: { USDT: '75' } });
    const res = await save(await t.authHeader(user), {
      exchange: 'bybit',
      apiKey: keys.apiKey,
      secretKey: keys.secret,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ exchange: 'bybit', permissions: { spot: true, withdraw: false } });
    const stored = await t.prisma.exchangeAccount.findUniqueOrThrow({
      where: { userId_exchange: { userId: user.id, exchange: 'bybit' } },
    });
    expect([stored.passphraseCipher, stored.passphraseIv]).toEqual([null, null]);
    const client = await t.ctx.exchanges.forAccount(stored.id);
    expect(client.exchange).toBe('bybit');
    expect((await client.fetchBalance()).USDT?.free.toFixed()).toBe('75');
  });

  it('refuses keys of a Bybit classic account in the user language and stores nothing', async () => {
    const user = await t.createUser({ username: 'keys_bybit_classic' });
    const keys = sandbox.control.createAccount({ balances: { USDT: '75' }, bybitClassic: true });
    const headers = await t.authHeader(user);
    await t.app.inject({ method: 'POST', url: '/home/config/localization/set?data=ru', headers });
    const res = await save(headers, { exchange: 'bybit', apiKey: keys.apiKey, secretKey: keys.secret });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'API_KEY_ACCOUNT_TYPE',
      detail: errorCatalogue.API_KEY_ACCOUNT_TYPE.detail.ru,
    });
    expect(await t.prisma.exchangeAccount.count({ where: { userId: user.id } })).toBe(0);
  });

  it("saves OKX keys with their passphrase sealed; a wrong passphrase is OKX's refusal and stores nothing", async () => {
    const user = await t.createUser({ username: 'keys_okx' });
    const headers = await t.authHeader(user);
    // OKX's formats: a UUID key, a secret of 32 hexadecimal digits and the passphrase chosen with it.
    const okxKeys = { apiKey: randomUUID(), secret: randomBytes(16).toString('hex').toUpperCase() };
    const keys = sandbox.control.createAccount({
      balances: { USDT: '60' },
      ...okxKeys,
      passphrase: 'Grid-Pass9',
    });
    const wrong = await save(headers, {
      exchange: 'okx',
      apiKey: keys.apiKey,
      secretKey: keys.secret,
      passphrase: 'Not-It-1',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().code).toBe('API_KEY_INVALID');
    expect(await t.prisma.exchangeAccount.count({ where: { userId: user.id } })).toBe(0);

    const res = await save(headers, {
      exchange: 'okx',
      apiKey: ` ${keys.apiKey} `,
      secretKey: keys.secret,
      passphrase: 'Grid-Pass9',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ exchange: 'okx', connected: true });
    expect(res.body).not.toContain('Grid-Pass9');
    const stored = await t.prisma.exchangeAccount.findUniqueOrThrow({
      where: { userId_exchange: { userId: user.id, exchange: 'okx' } },
    });
    expect(stored.apiKey).toBe(keys.apiKey);
    expect(Buffer.from(stored.passphraseCipher ?? []).toString('latin1')).not.toContain('Grid-Pass9');
    const client = await t.ctx.exchanges.forAccount(stored.id);
    expect((await client.fetchBalance()).USDT?.free.toFixed()).toBe('60');
  });

  it("checks each field by its exchange's format and refuses a passphrase where the exchange has none, calling no exchange", async () => {
    const user = await t.createUser({ username: 'keys_formats' });
    const headers = await t.authHeader(user);
    const hex = randomBytes(16).toString('hex');
    const issues = async (body: object) => {
      const res = await save(headers, body);
      expect(res.statusCode).toBe(400);
      return [...new Set((res.json().issues as Array<{ path: string }>).map((issue) => issue.path))].sort();
    };
    // A Binance-shaped key is not an OKX key; the passphrase is missing.
    const binanceKey = 'A'.repeat(64);
    expect(await issues({ exchange: 'okx', apiKey: binanceKey, secretKey: binanceKey })).toEqual([
      'body.apiKey',
      'body.passphrase',
      'body.secretKey',
    ]);
    expect(
      await issues({ exchange: 'okx', apiKey: randomUUID(), secretKey: hex, passphrase: 'two words' }),
    ).toEqual(['body.passphrase']);
    expect(await issues({ exchange: 'bybit', apiKey: 'short', secretKey: 'a-b', passphrase: 'x' })).toEqual([
      'body.apiKey',
      'body.passphrase',
      'body.secretKey',
    ]);
    expect(await issues({ exchange: 'kraken', apiKey: binanceKey, secretKey: binanceKey })).toEqual([
      'body.exchange',
    ]);
    expect(await t.prisma.exchangeAccount.count({ where: { userId: user.id } })).toBe(0);
  });
});

describe('GET /home/check_keys', () => {
  it('says there are no keys yet', async () => {
    const user = await t.createUser({ username: 'check_none' });
    const res = await check(await t.authHeader(user));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      hasKeys: false,
      connected: false,
      exchange: null,
      permissions: null,
      usdtBalance: null,
      problem: 'NO_API_KEYS',
      key: null,
    });
  });

  it('checks the saved keys live: permissions and free USDT, and notices when they change on the exchange', async () => {
    const user = await t.createUser({ username: 'check_live' });
    const headers = await t.authHeader(user);
    const keys = sandbox.control.createAccount({ balances: { USDT: '123.45' } });
    await save(headers, { apiKey: keys.apiKey, secretKey: keys.secret });

    const ok = await check(headers);
    expect(ok.json()).toMatchObject({
      hasKeys: true,
      connected: true,
      exchange: 'binance',
      permissions: { spot: true, withdraw: false },
      usdtBalance: '123.45',
      problem: null,
      key: { apiKeyMasked: `${keys.apiKey.slice(0, 4)}…${keys.apiKey.slice(-4)}`, connected: true },
    });

    sandbox.control.setBalances(keys.apiKey, { USDT: '0' });
    const empty = await check(headers);
    expect(empty.json()).toMatchObject({
      connected: true,
      usdtBalance: '0',
      problem: 'EXCHANGE_BALANCE_ZERO',
    });

    sandbox.control.setPermissions(keys.apiKey, { withdrawals: true });
    const withdraw = await check(headers);
    expect(withdraw.json()).toMatchObject({
      connected: false,
      permissions: { spot: true, withdraw: true },
      problem: 'API_KEY_WITHDRAW_ENABLED',
    });
    const stored = await t.prisma.exchangeAccount.findFirstOrThrow({ where: { userId: user.id } });
    expect(stored).toMatchObject({ canWithdraw: true, checkProblem: 'API_KEY_WITHDRAW_ENABLED' });

    // Another user sees none of it.
    const other = await t.createUser({ username: 'check_other' });
    expect((await check(await t.authHeader(other))).json().problem).toBe('NO_API_KEYS');
  });

  it('says when the keys were saved and, apart from it, when they were last checked', async () => {
    const user = await t.createUser({ username: 'check_saved_at' });
    const headers = await t.authHeader(user);
    const keys = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const saved = (await save(headers, { apiKey: keys.apiKey, secretKey: keys.secret })).json();
    expect(saved.savedAt).toBe(saved.lastCheckedAt);
    // Saved yesterday: a check today moves the check, not the save.
    const yesterday = new Date(Date.now() - 86_400_000);
    await t.prisma.exchangeAccount.updateMany({
      where: { userId: user.id },
      data: { savedAt: yesterday, checkedAt: yesterday },
    });
    const { key } = (await check(headers)).json();
    expect(key.savedAt).toBe(yesterday.toISOString());
    expect(Date.parse(key.lastCheckedAt)).toBeGreaterThan(yesterday.getTime() + 3_600_000);
  });
});
