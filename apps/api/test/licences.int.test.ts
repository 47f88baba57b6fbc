import { SYSTEM_ACCOUNTS } from '@gridbot/ledger';
import { grantLicense, payMatchingBonuses } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLicencesCli } from '../src/cli/licences-commands';
import { createTestApp, type TestApp } from './support/test-app';
import { balanceOf, bookDeposit, expectBooksIntact, moneySnapshot } from './support/wallet-fixtures';

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
  // Found by the hostile-input fuzz: a refusal used to open system:house before checking.
  it('a refused renewal or upgrade leaves the ledger as it was, down to its accounts', async () => {
    const buyer = await newUser();
    const house = { where: { code: SYSTEM_ACCOUNTS.house } };
    expect(await t.prisma.ledgerAccount.count(house)).toBe(0);
    const before = await moneySnapshot(t.prisma);
    expect((await post(buyer, '/profile/renew_license')).json().code).toBe('LICENSE_RENEWAL_UNAVAILABLE');
    expect((await post(buyer, '/profile/update_licence', { level: 'PRO1' })).json().code).toBe(
      'INSUFFICIENT_FUNDS',
    );
    expect(await moneySnapshot(t.prisma)).toEqual(before);
    expect(await t.prisma.ledgerAccount.count(house)).toBe(0);
  });

  it('upgrades, pays the sponsor, refuses what it must in the user language, and pays once per key', async () => {
    const sponsor = await newUser();
    // Only a paid licence earns referral bonuses (docs/bonuses.md#who-earns).
    await grantLicense(t.ctx, { userId: sponsor.user.id, level: 'PRO1' });
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
    // The sponsor (PRO1, active) earns 30 %.
    expect(await balanceOf(t.prisma, sponsor.user, 'main')).toBe(30_000_000n);

    const profile = (await post(buyer, '/profile/')).json();
    expect(profile).toMatchObject({
      uid: buyer.user.uid,
      username: buyer.user.username,
      language: 'ru',
      registeredAt: buyer.user.createdAt.toISOString(),
      sponsor: { uid: sponsor.user.uid, username: sponsor.user.username },
      license: { level: 'PRO1', paid: true, balanceLimit: '2000', coins: 10, matchingGenerations: 1 },
      tradingPairs: { used: 0, limit: 10 },
      apiKey: null,
      notifications: { enabled: true },
    });
    // The ladder with what each level costs now: the difference from the unexpired PRO1.
    expect(
      profile.licenseOffers.map((o: { level: string; priceToPay: string; available: boolean }) => [
        o.level,
        o.priceToPay,
        o.available,
      ]),
    ).toEqual([
      ['FREE', '0', false],
      ['PRO1', '100', false],
      ['PRO2', '200', true],
      ['PRO3', '500', true],
      ['PRO4', '1100', true],
    ]);
    expect(profile.licenseOffers[2].activeUntil).toBe(profile.license.activeUntil);

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
      matchingGenerations: 1,
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

describe('renewal only in the 30 days before the end', () => {
  it('refuses it earlier and after the end with a clear 422 in the user language, moving nothing; after the end the level is on sale again', async () => {
    const buyer = await newUser();
    await bookDeposit(t.prisma, buyer.user, '500');
    await t.prisma.userConfig.create({ data: { userId: buyer.user.id, name: 'localization', value: 'ru' } });
    const period = (daysLeft: number) =>
      t.prisma.user.update({
        where: { id: buyer.user.id },
        data: {
          licenseLevel: 'PRO2',
          licenseActiveFrom: new Date(Date.now() - 300 * 86_400_000),
          licenseActiveUntil: new Date(Date.now() + daysLeft * 86_400_000),
        },
      });
    const renew = async () => {
      const before = await moneySnapshot(t.prisma);
      const res = await post(buyer, '/profile/renew_license');
      expect(await moneySnapshot(t.prisma)).toEqual(before);
      return res;
    };

    await period(31);
    const early = await renew();
    expect(early.statusCode).toBe(422);
    expect(early.json()).toMatchObject({ code: 'LICENSE_RENEWAL_UNAVAILABLE' });
    expect(early.json().detail).toContain('30 дней');
    const profileEarly = (await post(buyer, '/profile/')).json();
    expect(profileEarly.license.renewal).toMatchObject({ available: false, price: '240' });

    await period(-1);
    const late = await renew();
    expect(late.statusCode).toBe(422);
    expect(late.json()).toMatchObject({ code: 'LICENSE_RENEWAL_EXPIRED' });
    expect(late.json().detail).toContain('полной цене');
    const profile = (await post(buyer, '/profile/')).json();
    expect(profile.license).toMatchObject({
      expired: true,
      renewal: { available: false, newActiveUntil: null },
    });
    // The expired level and every other paid one are offered again at the full price.
    expect(
      profile.licenseOffers.map((o: { level: string; priceToPay: string; available: boolean }) => [
        o.level,
        o.priceToPay,
        o.available,
      ]),
    ).toEqual([
      ['FREE', '0', false],
      ['PRO1', '100', true],
      ['PRO2', '300', true],
      ['PRO3', '600', true],
      ['PRO4', '1200', true],
    ]);
    const again = await post(buyer, '/profile/update_licence', { level: 'PRO2' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ charged: '300', license: { level: 'PRO2', expired: false } });
    await expectBooksIntact(t.prisma);
  });
});

describe('the licence ladder CLI', () => {
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runLicencesCli(
      t.ctx,
      argv,
      { out: (l) => out.push(l), err: (l) => err.push(l) },
      'tester',
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('lists, changes with an audit line, adds a level, grants, and refuses a bad ladder', async () => {
    const list = await run('list');
    expect(list.code).toBe(0);
    expect(list.out).toContain(
      'PRO1 (rank 1): price 100 USDT, limit 2000 USDT, 10 coins, 1 generation, 365 days',
    );

    const changed = await run('set', 'pro1', '--price', '120', '--coins', '12', '--operator', 'ann');
    expect(changed.code).toBe(0);
    expect(changed.out).toMatch(/operator:ann changed PRO1: price 100 → 120, coins 10 → 12$/);
    expect(await t.prisma.licenseLevel.findUniqueOrThrow({ where: { code: 'PRO1' } })).toMatchObject({
      coins: 12,
    });

    // Prices must rise with the rank: PRO2 at 100 would cost less than PRO1.
    const cheaper = await run('set', 'PRO2', '--price', '100');
    expect(cheaper.code).toBe(1);
    expect(cheaper.err).toContain('PRO2: must cost more than PRO1');
    expect(
      (await t.prisma.licenseLevel.findUniqueOrThrow({ where: { code: 'PRO2' } })).yearlyPrice.toFixed(),
    ).toBe('300');
    expect((await run('set', 'PRO2', '--generations', '7')).code).toBe(1);
    expect((await run('set', 'FREE', '--price', '5')).err).toContain('the free level costs nothing');
    expect((await run('set', 'PRO5', '--price', '2400')).err).toContain('a new level needs --limit');

    const added = await run(
      'set',
      'PRO5',
      '--price',
      '2400',
      '--limit',
      '100000',
      '--coins',
      '80',
      '--generations',
      '3',
      '--days',
      '365',
    );
    expect(added.code).toBe(0);
    expect(added.out).toContain('added PRO5: price 2400, limit 100000, coins 80, generations 3, days 365');
    expect((await t.prisma.licenseLevel.findUniqueOrThrow({ where: { code: 'PRO5' } })).rank).toBe(5);

    const user = await newUser();
    const granted = await run('grant', String(user.user.uid), 'pro3');
    expect(granted.out).toContain(`granted uid ${user.user.uid}: FREE → PRO3`);
    expect((await run('grant', '99999999', 'PRO3')).code).toBe(1);
    expect((await run('frobnicate')).code).toBe(2);
    await run('set', 'PRO1', '--price', '100', '--coins', '10');
  });
});
