import type { User } from '@gridbot/db';
import { type SandboxExchangeHandle, startSandboxExchange } from '@gridbot/sandbox';
import { fundWallet, grantLicense } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

let sandbox: SandboxExchangeHandle;
let t: TestApp;

beforeAll(async () => {
  sandbox = await startSandboxExchange({
    port: 0,
    tickMs: 0,
    markets: ['XRP', 'ADA', 'ETH'].map((base) => ({
      base,
      quote: 'USDT',
      tickSize: '0.0001',
      stepSize: '0.1',
      minNotional: '5',
      feed: { kind: 'fixed' as const, price: '0.5' },
    })),
  });
  t = await createTestApp({}, { sandboxUrl: sandbox.url });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await sandbox?.close();
});

type Trader = { user: User; headers: Record<string, string>; apiKey: string };

/** A user with sandbox keys saved through the API, a funded fee balance and paused coin bots. */
const trader = async (
  username: string,
  options: {
    coins?: string[];
    usdt?: string;
    fee?: string;
    keys?: boolean;
    orderSize?: string;
    maxTrades?: number;
  } = {},
): Promise<Trader> => {
  const user = await t.createUser({ username });
  const headers = await t.authHeader(user);
  const keys = sandbox.control.createAccount({ balances: { USDT: options.usdt ?? '1000' } });
  let accountId: number | undefined;
  if (options.keys !== false) {
    const saved = await t.app.inject({
      method: 'POST',
      url: '/profile/api_key',
      headers,
      payload: { apiKey: keys.apiKey, secretKey: keys.secret },
    });
    expect(saved.statusCode).toBe(200);
    accountId = (await t.prisma.exchangeAccount.findFirstOrThrow({ where: { userId: user.id } })).id;
  } else {
    // Coin bots need an account row; one whose keys the exchange refused.
    const sealed = t.ctx.secrets.seal('x'.repeat(64), `${user.id}:binance`);
    accountId = (
      await t.prisma.exchangeAccount.create({
        data: {
          userId: user.id,
          exchange: 'binance',
          mode: 'sandbox',
          apiKey: 'R'.repeat(64),
          secretCipher: sealed.cipher,
          secretIv: sealed.iv,
          keyId: sealed.keyId,
          checkProblem: 'API_KEY_INVALID',
        },
      })
    ).id;
  }
  if (options.fee !== '0') {
    const fee = options.fee ?? '10';
    await fundWallet(t.prisma, { userId: user.id, deposit: fee, fee, key: `test:${user.id}` });
  }
  for (const coin of options.coins ?? ['XRP', 'ADA']) {
    await t.prisma.coinBot.create({
      data: {
        userId: user.id,
        exchangeAccountId: accountId,
        coin,
        symbol: `${coin}/USDT`,
        orderSize: options.orderSize ?? '10',
        stepPct: '1',
        stepIncreasePct: '0.1',
        maxTrades: options.maxTrades ?? 3,
      },
    });
  }
  return { user, headers, apiKey: keys.apiKey };
};

const call = (who: Trader, method: 'GET' | 'POST', url: string) =>
  t.app.inject({ method, url, headers: who.headers });

const flags = async (user: User) =>
  Object.fromEntries(
    (await t.prisma.coinBot.findMany({ where: { userId: user.id }, orderBy: { id: 'asc' } })).map((b) => [
      b.coin,
      { running: b.running, dry: b.dry },
    ]),
  );

const activity = async (user: User, kind: string) =>
  t.prisma.coinActivity.count({ where: { userId: user.id, kind } });

describe('start and pause', () => {
  it('starts every coin, then pauses one and all, logging who did it', async () => {
    const a = await trader('tc_happy');
    const started = await call(a, 'POST', '/home/start');
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({ running: true, allRunning: true, dryAll: false, blockers: [] });
    expect(started.json().coins.map((c: { state: string }) => c.state)).toEqual(['running', 'running']);
    expect(await flags(a.user)).toEqual({
      XRP: { running: true, dry: false },
      ADA: { running: true, dry: false },
    });
    const bots = await t.prisma.coinBot.findMany({ where: { userId: a.user.id } });
    expect(bots.every((b) => b.startedAt !== null)).toBe(true);
    expect(await activity(a.user, 'started')).toBe(2);

    const one = await call(a, 'POST', '/home/pause?coin_name=xrp');
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ running: true, allRunning: false });
    expect(await flags(a.user)).toMatchObject({ XRP: { running: false }, ADA: { running: true } });

    const all = await call(a, 'POST', '/home/pause');
    expect(all.json()).toMatchObject({ running: false, allRunning: false });
    expect(all.json().coins.map((c: { state: string }) => c.state)).toEqual(['paused', 'paused']);
    expect(await activity(a.user, 'paused')).toBe(2);

    // Pausing what is paused changes and logs nothing.
    await call(a, 'POST', '/home/pause');
    expect(await activity(a.user, 'paused')).toBe(2);
  });

  it('refuses a start without working API keys: No API connection, nothing changes', async () => {
    const a = await trader('tc_nokeys', { keys: false });
    const res = await call(a, 'POST', '/home/start');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'NO_API_CONNECTION', message: 'No API connection' });
    expect(await flags(a.user)).toEqual({
      XRP: { running: false, dry: false },
      ADA: { running: false, dry: false },
    });
    expect(await activity(a.user, 'started')).toBe(0);
    const state = await call(a, 'POST', '/home/pause');
    expect(state.json().blockers).toContain('NO_API_CONNECTION');
  });

  it('refuses "start all" on an empty portfolio: no coins to start, nothing changes', async () => {
    const a = await trader('tc_nocoins', { coins: [] });
    const res = await call(a, 'POST', '/home/start');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'NO_COINS_TO_START', message: 'No coins to start' });
    expect(res.json().detail).toContain('no coins in your portfolio');
    expect(await activity(a.user, 'started')).toBe(0);
    const state = (await call(a, 'POST', '/home/pause')).json();
    expect(state).toMatchObject({ running: false, allRunning: false, coins: [] });
  });

  it('refuses a start when the exchange account holds no USDT', async () => {
    const a = await trader('tc_nousdt', { usdt: '0' });
    const res = await call(a, 'POST', '/home/start');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'EXCHANGE_BALANCE_ZERO',
      message: 'Your USDT balance on the exchange account should be more than zero',
    });
    expect(await flags(a.user)).toMatchObject({ XRP: { running: false } });
  });

  it('refuses a start with an empty fee balance, in the user language', async () => {
    const a = await trader('tc_nofee', { fee: '0' });
    await call(a, 'POST', '/home/config/localization/set?data=ru');
    const res = await call(a, 'POST', '/home/start?coin_name=ADA');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'FEE_BALANCE_EMPTY',
      message: 'To start, you need to top up your wallet to pay trading fees',
    });
    expect(res.json().detail).toContain('пополните');
    expect(await flags(a.user)).toMatchObject({ ADA: { running: false } });
  });

  it('refuses a start on an expired licence and beyond the licence balance limit', async () => {
    const expired = await trader('tc_expired');
    await t.prisma.user.update({
      where: { id: expired.user.id },
      data: { createdAt: new Date(Date.now() - 15 * 86_400_000) },
    });
    const a = await call(expired, 'POST', '/home/start');
    expect(a.statusCode).toBe(422);
    expect(a.json().code).toBe('LICENSE_EXPIRED');

    // FREE allows 300 USDT of committed capital: 2 coins × 100 × 3 = 600.
    const big = await trader('tc_limit', { orderSize: '100', maxTrades: 3 });
    const b = await call(big, 'POST', '/home/start');
    expect(b.statusCode).toBe(422);
    expect(b.json()).toMatchObject({ code: 'LICENSE_BALANCE_LIMIT' });
    expect(await flags(big.user)).toMatchObject({ XRP: { running: false }, ADA: { running: false } });

    // A larger licence lets the same portfolio start.
    await grantLicense(t.ctx, { userId: big.user.id, level: 'PRO1' });
    expect((await call(big, 'POST', '/home/start')).statusCode).toBe(200);
  });

  it("answers 404 for a coin the user does not hold (another user's included) and 400 for nonsense", async () => {
    const a = await trader('tc_owner', { coins: ['ETH'] });
    const b = await trader('tc_other', { coins: ['XRP'] });
    expect((await call(b, 'POST', '/home/start?coin_name=ETH')).json().code).toBe('COIN_NOT_FOUND');
    expect((await call(b, 'POST', '/home/pause?coin_name=ETH')).statusCode).toBe(404);
    expect((await call(b, 'POST', '/home/start?coin_name=ET-H')).statusCode).toBe(400);
    expect(await flags(a.user)).toEqual({ ETH: { running: false, dry: false } });
  });

  it('logs one start per coin when the same start arrives five times at once', async () => {
    const a = await trader('tc_concurrent');
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(a, 'POST', '/home/start')));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await activity(a.user, 'started')).toBe(2);
  });
});

describe('drying', () => {
  it("sets one coin's mode: dry keeps it running on sells only, active clears it, paused pauses", async () => {
    const a = await trader('tc_mode');
    await call(a, 'POST', '/home/start');
    const dry = await call(a, 'GET', '/portfolio/set_coin_status?coin_name=XRP&status=dry');
    expect(dry.statusCode).toBe(200);
    const xrp = dry.json().coins.find((c: { coin: string }) => c.coin === 'XRP');
    expect(xrp).toMatchObject({ running: true, dry: true, state: 'dried', dryReason: 'coin' });

    const active = await call(a, 'GET', '/portfolio/set_coin_status?coin_name=XRP&status=ACTIVE');
    expect(active.json().coins.find((c: { coin: string }) => c.coin === 'XRP')).toMatchObject({
      running: true,
      dry: false,
      state: 'running',
      dryReason: null,
    });

    const paused = await call(a, 'GET', '/portfolio/set_coin_status?coin_name=XRP&status=paused');
    expect(paused.json().coins.find((c: { coin: string }) => c.coin === 'XRP')).toMatchObject({
      running: false,
    });

    // active on a paused coin starts it (with the start checks).
    const again = await call(a, 'GET', '/portfolio/set_coin_status?coin_name=XRP&status=active');
    expect(again.json().coins.find((c: { coin: string }) => c.coin === 'XRP')).toMatchObject({
      running: true,
    });
    expect(await activity(a.user, 'dry_on')).toBe(1);
    expect(await activity(a.user, 'dry_off')).toBe(1);

    const bad = await call(a, 'GET', '/portfolio/set_coin_status?coin_name=XRP&status=sleep');
    expect(bad.statusCode).toBe(400);
  });

  it('activating a paused coin that cannot start changes nothing, its dry flag included', async () => {
    const a = await trader('tc_mode_refused', { fee: '0' });
    await call(a, 'GET', '/portfolio/set_coin_status?coin_name=ADA&status=dry');
    const res = await call(a, 'GET', '/portfolio/set_coin_status?coin_name=ADA&status=active');
    expect(res.statusCode).toBe(422);
    expect(await flags(a.user)).toMatchObject({ ADA: { running: false, dry: true } });
  });

  it('global dry overrides the coins without changing their own flags; switching it off restores them', async () => {
    const a = await trader('tc_dry_all');
    await call(a, 'POST', '/home/start');
    await call(a, 'GET', '/portfolio/set_coin_status?coin_name=ADA&status=dry');
    const on = await call(a, 'GET', '/portfolio/dry_coins?status=on');
    expect(on.json().dryAll).toBe(true);
    expect(on.json().coins.map((c: { dryReason: string }) => c.dryReason)).toEqual(['all', 'coin']);
    expect(await flags(a.user)).toMatchObject({ XRP: { dry: false }, ADA: { dry: true } });

    const off = await call(a, 'GET', '/portfolio/dry_coins?status=off');
    expect(off.json().dryAll).toBe(false);
    expect(off.json().coins.map((c: { dryReason: string | null }) => c.dryReason)).toEqual([null, 'coin']);
    expect((await call(a, 'GET', '/portfolio/dry_coins?status=maybe')).statusCode).toBe(400);
  });

  it('activate_coins rewrites every coin flag: off dries all, on activates all', async () => {
    const a = await trader('tc_activate', { coins: ['XRP', 'ADA', 'ETH'] });
    const off = await call(a, 'GET', '/portfolio/activate_coins?status=off');
    expect(off.statusCode).toBe(200);
    expect(await flags(a.user)).toMatchObject({ XRP: { dry: true }, ADA: { dry: true }, ETH: { dry: true } });
    await call(a, 'GET', '/portfolio/activate_coins?status=on');
    expect(await flags(a.user)).toMatchObject({
      XRP: { dry: false },
      ADA: { dry: false },
      ETH: { dry: false },
    });
    expect(await activity(a.user, 'dry_on')).toBe(3);
    expect(await activity(a.user, 'dry_off')).toBe(3);
  });
});
