import { payMatchingBonuses } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';
import { balanceOf, bookDeposit, expectBooksIntact } from './support/wallet-fixtures';

/**
 * Licences over HTTP (docs/licences.md): upgrade and renewal with their refusals in the user's
 * language, the retried request paying once, and the partner bonus pages reading what was paid.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({});
}, 60_000);
afterAll(async () => {
  await t?.close();
});

let n = 0;
const newUser = async (sponsorId?: number) => {
  n += 1;
  const user = await t.createUser({
    username: `lic${n}_${Date.now() % 100000}`,
    ...(sponsorId ? { sponsorId } : {}),
  });
  return { user, headers: await t.authHeader(user) };
};
const post = (who: { headers: Record<string, string> }, url: string, body?: object, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...who.headers, ...extra },
    ...(body ? { payload: body } : {}),
  });

describe('licence purchase over HTTP', () => {
  it('upgrades, pays the sponsor, refuses what it must in the user language, and pays once per key', async () => {
    const sponsor = await newUser();
    const buyer = await newUser(sponsor.user.id);
    await bookDeposit(t.prisma, buyer.user, '150');
    await t.prisma.userConfig.create({ data: { userId: buyer.user.id, name: 'localization', value: 'ru' } });

    const refusedRu = await post(
      buyer,
      '/profile/update_licence',
      { level: 'PRO2' },
      { 'accept-language': 'ru' },
    );
    expect(refusedRu.statusCode).toBe(422);
    expect(refusedRu.json().code).toBe('INSUFFICIENT_FUNDS');
    expect(refusedRu.json().detail).toMatch(/^На вашем счёте недостаточно средств/);
    expect(await balanceOf(t.prisma, buyer.user, 'main')).toBe(150_000_000n);

    expect((await post(buyer, '/profile/update_licence', { level: 'NOPE' })).json().code).toBe(
      'LICENSE_LEVEL_UNKNOWN',
    );
    expect((await post(buyer, '/profile/update_licence', { level: 'FREE' })).json().code).toBe(
      'LICENSE_NOT_UPGRADE',
    );
    expect((await post(buyer, '/profile/renew_license')).json().code).toBe('LICENSE_RENEWAL_UNAVAILABLE');

    const key = { 'idempotency-key': 'licence-upgrade-0001' };
    const answers = await Promise.all([
      post(buyer, '/profile/update_licence', { level: 'pro1' }, key),
      post(buyer, '/profile/update_licence', { level: 'pro1' }, key),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const [first, second] = answers.map((a) => a.json());
    expect(first.transactionId).toBe(second.transactionId);
    expect(first).toMatchObject({ charged: '100', license: { level: 'PRO1', paid: true, coins: 10 } });
    expect(first.balances.main).toBe('50');
    expect(await balanceOf(t.prisma, buyer.user, 'main')).toBe(50_000_000n);
    // The sponsor (FREE, registered now: active) earns 30 %.
    expect(await balanceOf(t.prisma, sponsor.user, 'main')).toBe(30_000_000n);

    const detail = await post(sponsor, '/partners/referral_bonus/detail?date=today');
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({
      total: '30',
      items: [
        { line: 1, licenseLevel: 'PRO1', purchaseAmount: '100', ratePct: '30', amount: '30', paid: true },
      ],
    });
    const history = await post(sponsor, '/partners/referral_bonus/history?page=1&limit=10');
    expect(history.json()).toMatchObject({
      items: [{ amount: '30', payments: 1, status: 'credited' }],
      total: 1,
      hasMore: false,
      totalAmount: '30',
    });

    const matching = await post(sponsor, '/partners/matching_bonus/detail');
    expect(matching.json()).toMatchObject({
      status: 'pending',
      total: '0',
      items: [],
      matchingGenerations: 0,
    });
    expect((await post(sponsor, '/partners/matching_bonus/history')).json()).toMatchObject({
      items: [],
      total: 0,
    });
    await payMatchingBonuses(t.ctx);

    const expansion = await post(sponsor, '/partners/network_expansion/detail');
    expect(expansion.statusCode).toBe(200);
    expect(expansion.json()).toMatchObject({
      requiredPartners: 2,
      qualifyingPartners: 1,
      qualified: false,
      ratePct: '5',
      pool: '100',
      projectedBonus: '0',
      registrations: [{ line: 1, licenseLevel: 'PRO1', licensePurchase: '100', qualifying: true }],
    });
    await expectBooksIntact(t.prisma);
  });
});
