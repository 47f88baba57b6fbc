import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const login = (body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: body as object,
    headers: { accept: 'application/json', ...headers },
  });

describe('POST /auth/login', () => {
  it('signs in a registered user with valid initData and returns a working bearer token', async () => {
    const user = await t.createUser({ username: 'Alice_Trader' });
    const initData = t.launchData({ telegramId: user.telegramId, username: 'Alice_Trader' });
    const res = await login({
      user_id: Number(user.telegramId),
      first_name: 'Test',
      username: 'Alice_Trader',
      _auth: initData,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({
      uid: user.uid,
      username: 'Alice_Trader',
      telegramId: user.telegramId.toString(),
    });
    expect(new Date(body.expiresAt).getTime() - Date.now()).toBeGreaterThan(86_000_000);
    const config = await t.app.inject({
      method: 'GET',
      url: '/home/config/localization/get',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(config.statusCode).toBe(200);
  });

  it('POST /auth/telegram returns the token in data.token', async () => {
    const user = await t.createUser({ username: 'bob_tg' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/telegram',
      payload: { initData: t.launchData({ telegramId: user.telegramId, username: 'bob_tg' }) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.token).toMatch(/^ey/);
  });

  it.each([
    ['no body at all', undefined],
    ['empty _auth', { user_id: 1, _auth: '' }],
    ['whitespace _auth', { user_id: 1, _auth: '   ' }],
  ])('answers 400 initData missing for %s', async (_name, body) => {
    const res = await login(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: true,
      status: 400,
      code: 'INIT_DATA_MISSING',
      message: 'initData отсутствует',
    });
  });

  it('refuses tampered initData (a changed field breaks the signature)', async () => {
    const user = await t.createUser({ username: 'carol' });
    const initData = t.launchData({ telegramId: user.telegramId, username: 'carol' });
    const tampered = initData.replace(encodeURIComponent('"carol"'), encodeURIComponent('"mallory"'));
    expect(tampered).not.toBe(initData);
    const res = await login({ _auth: tampered });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INIT_DATA_INVALID');
  });

  it('refuses initData signed with another bot token', async () => {
    const user = await t.createUser({ username: 'dave' });
    const res = await login({
      _auth: t.launchData(
        { telegramId: user.telegramId, username: 'dave' },
        { token: '999:AAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
      ),
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses expired initData (older than INIT_DATA_MAX_AGE_S) and accepts fresh', async () => {
    const user = await t.createUser({ username: 'erin' });
    const old = new Date(Date.now() - 86_401_000);
    const expired = await login({
      _auth: t.launchData({ telegramId: user.telegramId, username: 'erin' }, { authDate: old }),
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().code).toBe('INIT_DATA_INVALID');
    const fresh = await login({ _auth: t.launchData({ telegramId: user.telegramId, username: 'erin' }) });
    expect(fresh.statusCode).toBe(200);
  });

  it('refuses a user_id that differs from the signed one', async () => {
    const user = await t.createUser({ username: 'frank' });
    const res = await login({
      user_id: 42,
      _auth: t.launchData({ telegramId: user.telegramId, username: 'frank' }),
    });
    expect(res.statusCode).toBe(401);
  });

  it("answers 403 'No Nickname' when the Telegram user has no username", async () => {
    const user = await t.createUser({ username: 'gina' });
    const res = await login({ _auth: t.launchData({ telegramId: user.telegramId, username: null }) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ message: 'No Nickname', code: 'NO_NICKNAME' });
  });

  it("answers 403 'No User' for an unknown user without a referral code", async () => {
    const res = await login({ _auth: t.launchData({ telegramId: 777n, username: 'stranger' }) });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ message: 'No User', code: 'NO_USER' });
    expect(await t.prisma.user.count({ where: { telegramId: 777n } })).toBe(0);
  });

  it("answers 403 'No User' for an unknown referral code and registers nobody", async () => {
    const res = await login({
      _auth: t.launchData({ telegramId: 778n, username: 'stranger2' }, { startParam: 'ref_nosuchcode' }),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('No User');
    expect(await t.prisma.user.count({ where: { telegramId: 778n } })).toBe(0);
  });

  it("answers 403 'No Nickname in DB' when a new account's username is recorded for another account", async () => {
    await t.createUser({ username: 'taken_name' });
    const viaReferral = await login({
      _auth: t.launchData(
        { telegramId: 779n, username: 'Taken_Name' },
        { startParam: `ref_${t.root.referralCode}` },
      ),
    });
    expect(viaReferral.statusCode).toBe(403);
    expect(viaReferral.json().message).toBe('No Nickname in DB');
    expect(await t.prisma.user.count({ where: { telegramId: 779n } })).toBe(0);
  });

  it('an existing user whose signed username is still recorded for another (stale) account signs in', async () => {
    const stale = await t.createUser({ username: 'alice_old' });
    const user = await t.createUser({ username: 'bob_now' });
    // Telegram says user now holds "alice_old" (the other account renamed itself meanwhile).
    const res = await login({ _auth: t.launchData({ telegramId: user.telegramId, username: 'Alice_Old' }) });
    expect(res.statusCode).toBe(200);
    expect(await t.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      username: 'Alice_Old',
      usernameKey: 'alice_old',
    });
    // The stale account keeps its records; its name is parked until its owner signs in again.
    const parked = await t.prisma.user.findUniqueOrThrow({ where: { id: stale.id } });
    expect(parked.usernameKey).toBe(`~stale:${stale.id}`);
    const back = await login({
      _auth: t.launchData({ telegramId: stale.telegramId, username: 'alice_new' }),
    });
    expect(back.statusCode).toBe(200);
    expect((await t.prisma.user.findUniqueOrThrow({ where: { id: stale.id } })).usernameKey).toBe(
      'alice_new',
    );
  });

  it('accepts user_id as a digit string (ids beyond 2^53) and still requires it to match', async () => {
    const user = await t.createUser({ username: 'digits' });
    const initData = t.launchData({ telegramId: user.telegramId, username: 'digits' });
    expect((await login({ user_id: user.telegramId.toString(), _auth: initData })).statusCode).toBe(200);
    expect((await login({ user_id: '9007199254740993', _auth: initData })).statusCode).toBe(401);
  });

  it('takes over a new free username when the user renamed themselves in Telegram', async () => {
    const user = await t.createUser({ username: 'old_name' });
    const res = await login({ _auth: t.launchData({ telegramId: user.telegramId, username: 'New_Name' }) });
    expect(res.statusCode).toBe(200);
    const stored = await t.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored).toMatchObject({ username: 'New_Name', usernameKey: 'new_name' });
  });

  it('localizes the error detail from Accept-Language', async () => {
    const res = await login(
      { _auth: t.launchData({ telegramId: 780n, username: 'x_user' }) },
      { 'accept-language': 'ru-RU' },
    );
    expect(res.json().detail).toContain('зарегистрированных');
    const cn = await login(
      { _auth: t.launchData({ telegramId: 780n, username: 'x_user' }) },
      { 'accept-language': 'zh-CN' },
    );
    expect(cn.json().detail).toContain('注册');
  });
});

describe('registration through a referral code', () => {
  it('registers a new user under the sponsor of the code, with a public UID and own code', async () => {
    const sponsor = await t.createUser({ username: 'sponsor_one' });
    const res = await login({
      _auth: t.launchData(
        { telegramId: 880_001n, username: 'newbie' },
        { startParam: `ref_${sponsor.referralCode}` },
      ),
    });
    expect(res.statusCode).toBe(200);
    const created = await t.prisma.user.findUniqueOrThrow({ where: { telegramId: 880_001n } });
    expect(created.sponsorId).toBe(sponsor.id);
    expect(created.uid).toBeGreaterThanOrEqual(100_001);
    expect(created.referralCode).toMatch(/^[a-z0-9]{8}$/);
    expect(res.json().user.referralCode).toBe(created.referralCode);

    // Signing in again (even with another code) neither re-registers nor moves the sponsor.
    const again = await login({
      _auth: t.launchData(
        { telegramId: 880_001n, username: 'newbie' },
        { startParam: `ref_${t.root.referralCode}` },
      ),
    });
    expect(again.statusCode).toBe(200);
    expect((await t.prisma.user.findUniqueOrThrow({ where: { telegramId: 880_001n } })).sponsorId).toBe(
      sponsor.id,
    );
  });

  it('the root account makes the first code possible', async () => {
    const res = await login({
      _auth: t.launchData({ telegramId: 880_002n, username: 'first_one' }, { startParam: 'ref_root' }),
    });
    expect(res.statusCode).toBe(200);
    expect((await t.prisma.user.findUniqueOrThrow({ where: { telegramId: 880_002n } })).sponsorId).toBe(
      t.root.id,
    );
  });

  it('concurrent first sign-ins of the same new user create exactly one account', async () => {
    const initData = t.launchData({ telegramId: 880_003n, username: 'racer' }, { startParam: 'ref_root' });
    const results = await Promise.all(Array.from({ length: 5 }, () => login({ _auth: initData })));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(await t.prisma.user.count({ where: { telegramId: 880_003n } })).toBe(1);
    expect(new Set(results.map((r) => r.json().user.uid)).size).toBe(1);
  });

  it('stores the language from Telegram as the initial localization', async () => {
    const res = await login({
      _auth: t.launchData(
        { telegramId: 880_004n, username: 'ru_user', languageCode: 'ru' },
        { startParam: 'ref_root' },
      ),
    });
    expect(res.json().user.language).toBe('ru');
  });
});
