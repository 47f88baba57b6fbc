import type { User } from '@gridbot/db';
import { demoXpub, grantLicense } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';
import { bookDeposit, expectBooksIntact, moneySnapshot, WITHDRAW_ADDRESS } from './support/wallet-fixtures';

/**
 * Every call that takes an `Idempotency-Key` (docs/wallet.md#retries, docs/licences.md#payment):
 * the same key with the same request answers the earlier result and moves nothing new; the same
 * key with other data — another amount, recipient, level, or another kind of move — is 409
 * REQUEST_CONFLICT and changes nothing.
 */

let t: TestApp;
let n = 0;
beforeAll(async () => {
  t = await createTestApp({ WALLET_XPUB: demoXpub(), WITHDRAW_AUTO_APPROVE_USDT: '50' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const funded = async (usdt: string) => {
  n += 1;
  const user = await t.createUser({ username: `idem_${n}_user` });
  if (usdt !== '0') await bookDeposit(t.prisma, user, usdt);
  return user;
};

const poster = async (user: User) => {
  const headers = await t.authHeader(user);
  return (url: string, key: string, body?: object) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, 'idempotency-key': key },
      ...(body ? { payload: body } : {}),
    });
};

/** The second request is refused 409 and leaves the books and the tables as they were. */
const conflicts = async (send: () => Promise<{ statusCode: number; json: () => { code: string } }>) => {
  const before = await moneySnapshot(t.prisma);
  const purchases = await t.prisma.licensePurchase.count();
  const withdrawals = await t.prisma.withdrawal.count();
  const users = await t.prisma.user.findMany({
    orderBy: { id: 'asc' },
    select: { id: true, licenseLevel: true, licenseActiveUntil: true },
  });
  const res = await send();
  expect(res.statusCode).toBe(409);
  expect(res.json().code).toBe('REQUEST_CONFLICT');
  expect(await moneySnapshot(t.prisma)).toEqual(before);
  expect(await t.prisma.licensePurchase.count()).toBe(purchases);
  expect(await t.prisma.withdrawal.count()).toBe(withdrawals);
  expect(
    await t.prisma.user.findMany({
      orderBy: { id: 'asc' },
      select: { id: true, licenseLevel: true, licenseActiveUntil: true },
    }),
  ).toEqual(users);
};

describe('licence purchase and renewal', () => {
  it('update_licence: the same key and level answer the first purchase; another level is 409', async () => {
    const buyer = await funded('1000');
    const post = await poster(buyer);
    const first = await post('/profile/update_licence', 'licence-key-0001', { level: 'PRO1' });
    expect(first.statusCode).toBe(200);
    const again = await post('/profile/update_licence', 'licence-key-0001', { level: 'pro1' });
    expect(again.statusCode).toBe(200);
    expect(again.json().transactionId).toBe(first.json().transactionId);
    // Before: 200 with the PRO1 purchase, and nothing bought.
    await conflicts(() => post('/profile/update_licence', 'licence-key-0001', { level: 'PRO3' }));
    await expectBooksIntact(t.prisma);
  });

  it('renew_license: a key used for an upgrade is 409, not a renewal; the renewal key replays', async () => {
    const buyer = await funded('1000');
    await grantLicense(t.ctx, { userId: buyer.id, level: 'PRO1' });
    // Inside the renewal window.
    await t.prisma.user.update({
      where: { id: buyer.id },
      data: { licenseActiveUntil: new Date(Date.now() + 10 * 86_400_000) },
    });
    const post = await poster(buyer);
    expect((await post('/profile/update_licence', 'licence-key-0002', { level: 'PRO2' })).statusCode).toBe(
      200,
    );
    await conflicts(() => post('/profile/renew_license', 'licence-key-0002'));
    const renewed = await post('/profile/renew_license', 'renewal-key-0002');
    expect(renewed.statusCode).toBe(200);
    const replay = await post('/profile/renew_license', 'renewal-key-0002');
    expect(replay.json().transactionId).toBe(renewed.json().transactionId);
    await conflicts(() => post('/profile/update_licence', 'renewal-key-0002', { level: 'PRO3' }));
    await expectBooksIntact(t.prisma);
  });
});

describe('wallet moves', () => {
  it('inner_transaction: another amount or recipient is 409', async () => {
    const sender = await funded('100');
    const to = await funded('0');
    const other = await funded('0');
    const post = await poster(sender);
    const url = `/wallet/inner_transaction?summ=5&to_user=${to.uid}`;
    expect((await post(url, 'wallet-key-0001')).statusCode).toBe(200);
    expect((await post(url, 'wallet-key-0001')).statusCode).toBe(200);
    await conflicts(() => post(`/wallet/inner_transaction?summ=6&to_user=${to.uid}`, 'wallet-key-0001'));
    await conflicts(() => post(`/wallet/inner_transaction?summ=5&to_user=${other.uid}`, 'wallet-key-0001'));
  });

  it('add_money: another amount is 409', async () => {
    const user = await funded('100');
    const post = await poster(user);
    expect((await post('/wallet/add_money?summ=5', 'wallet-key-0002')).statusCode).toBe(200);
    expect((await post('/wallet/add_money?summ=5', 'wallet-key-0002')).statusCode).toBe(200);
    await conflicts(() => post('/wallet/add_money?summ=7', 'wallet-key-0002'));
  });

  it('withdraw_money: another amount is 409', async () => {
    const user = await funded('100');
    const post = await poster(user);
    const headers = await t.authHeader(user);
    const address = await t.app.inject({
      method: 'POST',
      url: `/wallet/add_withdraw_address?address=${WITHDRAW_ADDRESS}`,
      headers,
    });
    expect(address.statusCode).toBe(200);
    // A new address is locked for a day (docs/wallet.md#address-lock): this one was saved a day ago.
    await t.prisma.wallet.update({
      where: { userId: user.id },
      data: { withdrawAddressUsableFrom: new Date(Date.now() - 3_600_000) },
    });
    const first = await post('/wallet/withdraw_money?summ=20', 'wallet-key-0003');
    expect(first.statusCode).toBe(200);
    const again = await post('/wallet/withdraw_money?summ=20', 'wallet-key-0003');
    expect(again.json().withdrawal.id).toBe(first.json().withdrawal.id);
    await conflicts(() => post('/wallet/withdraw_money?summ=25', 'wallet-key-0003'));
  });
});

describe('one key, another kind of money move', () => {
  it('a key spent on a transfer, a top-up or a licence is 409 on any of the others', async () => {
    const user = await funded('1000');
    const to = await funded('0');
    const post = await poster(user);
    expect(
      (await post(`/wallet/inner_transaction?summ=5&to_user=${to.uid}`, 'shared-key-0001')).statusCode,
    ).toBe(200);
    await conflicts(() => post('/wallet/add_money?summ=5', 'shared-key-0001'));
    await conflicts(() => post('/profile/update_licence', 'shared-key-0001', { level: 'PRO1' }));
    expect((await post('/wallet/add_money?summ=5', 'shared-key-0002')).statusCode).toBe(200);
    await conflicts(() => post(`/wallet/inner_transaction?summ=5&to_user=${to.uid}`, 'shared-key-0002'));
    await conflicts(() => post('/profile/renew_license', 'shared-key-0002'));
    expect((await post('/profile/update_licence', 'shared-key-0003', { level: 'PRO1' })).statusCode).toBe(
      200,
    );
    await conflicts(() => post('/wallet/add_money?summ=5', 'shared-key-0003'));
    await expectBooksIntact(t.prisma);
  });
});
