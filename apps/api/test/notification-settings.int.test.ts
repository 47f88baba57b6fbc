import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const defaults = {
  enabled: true,
  fills: false,
  dailyReport: false,
  tradingAlerts: true,
  wallet: true,
  bonuses: true,
  license: true,
};

// The contract allows one call a second per user: each step below is another user's first call.
const notificate = async (username: string, payload: unknown) => {
  const user = await t.createUser({ username });
  const headers = await t.authHeader(user);
  const res = await t.app.inject({
    method: 'POST',
    url: '/profile/notificate',
    headers,
    payload: payload as object,
  });
  return { user, headers, res };
};

describe('/profile/notificate', () => {
  it('reads the defaults with {} (the daily report is opt-in)', async () => {
    const { res } = await notificate('notify_read', {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(defaults);
  });

  it('changes only the switches given and keeps them', async () => {
    const { user, res } = await notificate('notify_change', { dailyReport: true, wallet: false });
    expect(res.json()).toEqual({ ...defaults, dailyReport: true, wallet: false });
    expect(await t.prisma.notificationSettings.findUnique({ where: { userId: user.id } })).toMatchObject({
      dailyReport: true,
      wallet: false,
      tradingAlerts: true,
    });
  });

  it('the master switch is the `notifications` config value', async () => {
    const { headers, res } = await notificate('notify_off', { enabled: false });
    expect(res.json()).toEqual({ ...defaults, enabled: false });
    const config = await t.app.inject({ method: 'GET', url: '/home/config/notifications/get', headers });
    expect(config.json()).toEqual({ name: 'notifications', data: 'off' });
  });

  it('refuses an unknown switch or a non-boolean with 400 and changes nothing', async () => {
    const unknown = await notificate('notify_bad1', { sms: true });
    expect(unknown.res.statusCode).toBe(400);
    expect(unknown.res.json()).toMatchObject({ code: 'VALIDATION', status: 400 });
    const wrong = await notificate('notify_bad2', { wallet: 'no' });
    expect(wrong.res.statusCode).toBe(400);
    const users = [unknown.user.id, wrong.user.id];
    expect(await t.prisma.notificationSettings.count({ where: { userId: { in: users } } })).toBe(0);
  });
});
