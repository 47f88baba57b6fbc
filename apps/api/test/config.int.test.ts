import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SUPPORT_URL: 'https://t.me/desk_of_this_install' });
});
afterAll(async () => {
  await t?.close();
});

describe('user config', () => {
  it('round-trips localization, lower-cased, and the value survives a new session', async () => {
    const user = await t.createUser({ username: 'config_user' });
    const headers = await t.authHeader(user);
    const before = await t.app.inject({ method: 'GET', url: '/home/config/localization/get', headers });
    expect(before.json()).toEqual({ name: 'localization', data: null });

    const set = await t.app.inject({ method: 'POST', url: '/home/config/localization/set?data=RU', headers });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({ name: 'localization', data: 'ru' });

    const after = await t.app.inject({
      method: 'GET',
      url: '/home/config/localization/get',
      headers: await t.authHeader(user),
    });
    expect(after.json()).toEqual({ name: 'localization', data: 'ru' });

    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { _auth: t.launchData({ telegramId: user.telegramId, username: 'config_user' }) },
    });
    expect(login.json().user.language).toBe('ru');
  });

  it('refuses a value the name does not allow, in the user language, and changes nothing', async () => {
    const user = await t.createUser({ username: 'config_bad' });
    const headers = await t.authHeader(user);
    await t.app.inject({ method: 'POST', url: '/home/config/localization/set?data=cn', headers });
    const res = await t.app.inject({ method: 'POST', url: '/home/config/localization/set?data=de', headers });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'CONFIG_VALUE_INVALID', status: 400 });
    expect(res.json().detail).toContain('此设置');
    const stored = await t.app.inject({ method: 'GET', url: '/home/config/localization/get', headers });
    expect(stored.json().data).toBe('cn');
  });

  it('refuses an unknown config name and a missing value with 400', async () => {
    const user = await t.createUser({ username: 'config_unknown' });
    const headers = await t.authHeader(user);
    const unknown = await t.app.inject({ method: 'GET', url: '/home/config/password/get', headers });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('VALIDATION');
    const missing = await t.app.inject({ method: 'POST', url: '/home/config/localization/set', headers });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().issues[0].path).toContain('data');
  });
});

describe('public app config', () => {
  it("gives the installation's support link (SUPPORT_URL) without a sign-in", async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/config',
      headers: { accept: 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ supportUrl: 'https://t.me/desk_of_this_install' });
  });
});
