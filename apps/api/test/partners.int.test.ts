import type { PartnerMeasures } from '@gridbot/contracts';
import type { User } from '@gridbot/db';
import { ensureAccount, SYSTEM_ACCOUNTS, toMicro, transfer, userAccountCode } from '@gridbot/ledger';
import { fundWallet, grantLicense } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoinBot } from './support/coin-bot-fixtures';
import { createTestApp, type TestApp } from './support/test-app';
import { expectBooksIntact, moneySnapshot } from './support/wallet-fixtures';

/**
 * The partner pages against a hand-built four-level tree with licence purchases booked in the
 * ledger (docs/bonuses.md#measures):
 *
 *   root
 *   ├─ viewer ─┬─ ann (PRO1 100) ─┬─ ann1 (PRO2 300) ── ann1a (50, last month) ── ann1a1 (20)
 *   │          │                  └─ ann2 (FREE, last month)
 *   │          ├─ ben (FREE, trading, last month) ── ben1 (PRO1 100)
 *   │          └─ cat (PRO1 100)
 *   └─ stranger ── stranger1
 *
 * Everyone registers this month unless marked "last month"; all purchases are this month.
 */

let t: TestApp;
type Cast = Record<'viewer' | 'ann' | 'ann1' | 'ann1a' | 'ann1a1' | 'ann2' | 'ben' | 'ben1' | 'cat', User> & {
  stranger: User;
  stranger1: User;
};
let cast: Cast;

const startOfMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
};
const lastMonth = () => new Date(startOfMonth().getTime() - 10 * 86_400_000);

const headers = async (user: User) => ({ headers: await t.authHeader(user) });
const post = async (user: User, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, ...(await headers(user)), ...(payload ? { payload } : {}) });
const get = async (user: User, url: string) => t.app.inject({ method: 'GET', url, ...(await headers(user)) });

/** A licence purchase as the ledger holds it: the buyer's main balance → the house. */
const buyLicense = async (user: User, usdt: string, level = 'PRO1') => {
  await fundWallet(t.prisma, {
    userId: user.id,
    deposit: String(Number(usdt) + 1),
    fee: '1',
    key: `buy:${user.id}`,
  });
  await ensureAccount(t.prisma, SYSTEM_ACCOUNTS.house);
  await transfer(t.prisma, {
    idempotencyKey: `license:${user.id}:${level}`,
    type: 'license_purchase',
    memo: { level },
    legs: [
      { account: userAccountCode(user.id, 'main'), amount: -toMicro(usdt) },
      { account: SYSTEM_ACCOUNTS.house, amount: toMicro(usdt) },
    ],
  });
  await grantLicense(t.ctx, { userId: user.id, level });
};

const registeredAt = (user: User, at: Date) =>
  t.prisma.user.update({ where: { id: user.id }, data: { createdAt: at } });

const runningCoin = (user: User) => createCoinBot(t, user, { running: true });

beforeAll(async () => {
  t = await createTestApp();
  const viewer = await t.createUser({ username: 'tree_viewer' });
  const stranger = await t.createUser({ username: 'tree_stranger' });
  const stranger1 = await t.createUser({ username: 'tree_stranger1', sponsorId: stranger.id });
  const ben = await t.createUser({ username: 'tree_ben', sponsorId: viewer.id });
  const ann = await t.createUser({ username: 'tree_ann', sponsorId: viewer.id });
  const cat = await t.createUser({ username: 'tree_cat', sponsorId: viewer.id });
  const ann1 = await t.createUser({ username: 'tree_ann1', sponsorId: ann.id });
  const ann2 = await t.createUser({ username: 'tree_ann2', sponsorId: ann.id });
  const ben1 = await t.createUser({ username: 'tree_ben1', sponsorId: ben.id });
  const ann1a = await t.createUser({ username: 'tree_ann1a', sponsorId: ann1.id });
  const ann1a1 = await t.createUser({ username: 'tree_ann1a1', sponsorId: ann1a.id });
  await registeredAt(ben, new Date(lastMonth().getTime() - 86_400_000));
  await registeredAt(ann2, lastMonth());
  await registeredAt(ann1a, lastMonth());
  await buyLicense(ann, '100');
  await buyLicense(ann1, '300', 'PRO2');
  await buyLicense(ann1a, '50');
  await buyLicense(ann1a1, '20');
  await buyLicense(ben1, '100');
  await buyLicense(cat, '100');
  await runningCoin(ben);
  const fresh = (user: User) => t.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
  cast = {
    viewer,
    stranger,
    stranger1,
    ben: await fresh(ben),
    ann: await fresh(ann),
    cat: await fresh(cat),
    ann1: await fresh(ann1),
    ann2: await fresh(ann2),
    ben1: await fresh(ben1),
    ann1a: await fresh(ann1a),
    ann1a1: await fresh(ann1a1),
  };
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const measures = (fields: Partial<PartnerMeasures>): PartnerMeasures => ({
  personalVolume: '0',
  teamVolume: '0',
  generation1Volume: '0',
  generation2Volume: '0',
  generation3Volume: '0',
  newPersonalRegistrations: 0,
  newTeamRegistrations: 0,
  freeLicenseNonTrading: 0,
  activatedLicenses: 0,
  ...fields,
});

describe('partner measures', () => {
  const cases: [string, keyof Cast, string, PartnerMeasures][] = [
    [
      'the viewer this month: line 1 = ann + cat, the fourth level counts for the team only',
      'viewer',
      'current_month',
      measures({
        personalVolume: '200',
        teamVolume: '670',
        generation1Volume: '200',
        generation2Volume: '400',
        generation3Volume: '50',
        newPersonalRegistrations: 2,
        newTeamRegistrations: 5,
        freeLicenseNonTrading: 1,
        activatedLicenses: 6,
      }),
    ],
    [
      'the viewer last month: registrations only, no purchase then',
      'viewer',
      'last_month',
      measures({ newPersonalRegistrations: 1, newTeamRegistrations: 3, freeLicenseNonTrading: 1 }),
    ],
    [
      'ann this month: her own downline, shifted one line up',
      'ann',
      'current_month',
      measures({
        personalVolume: '300',
        teamVolume: '370',
        generation1Volume: '300',
        generation2Volume: '50',
        generation3Volume: '20',
        newPersonalRegistrations: 1,
        newTeamRegistrations: 2,
        freeLicenseNonTrading: 1,
        activatedLicenses: 3,
      }),
    ],
    [
      'ann1a: one partner below',
      'ann1a',
      'current_month',
      measures({
        personalVolume: '20',
        teamVolume: '20',
        generation1Volume: '20',
        newPersonalRegistrations: 1,
        newTeamRegistrations: 1,
        activatedLicenses: 1,
      }),
    ],
    ['a leaf has nothing', 'ann1a1', 'current_month', measures({})],
  ];

  it.each(cases)('%s', async (_name, who, period, expected) => {
    const res = await post(cast[who], `/partners/my_partners/${period}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().measures).toEqual(expected);
  });

  it('the viewer with 670 USDT of team purchases as the ledger holds them', async () => {
    const [row] = await t.prisma.$queryRawUnsafe<{ paid: string }[]>(
      `SELECT (-sum(e.amount))::text AS paid FROM ledger_entries e JOIN ledger_transfers tr ON tr.id = e.transfer_id
        WHERE tr.type = 'license_purchase' AND e.amount < 0`,
    );
    expect(row?.paid).toBe(toMicro('670').toString());
    await expectBooksIntact(t.prisma);
  });
});

describe('GET /partners/', () => {
  it('shows the sponsor, the link, the team by line, this month and the ranking', async () => {
    const res = await get(cast.viewer, '/partners/');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.sponsor).toEqual({
      uid: t.root.uid,
      username: t.root.username,
      firstName: t.root.firstName,
      licenseLevel: 'FREE',
    });
    expect(body.referralCode).toBe(cast.viewer.referralCode);
    expect(body.referralLink).toBe(
      `https://t.me/${t.ctx.env.BOT_USERNAME}?startapp=ref_${cast.viewer.referralCode}`,
    );
    expect(body.team).toEqual({ line1: 3, line2: 3, line3: 1, total: 8 });
    expect(body.ranking).toMatchObject({ newPro1Partners: 2, required: 2, qualified: true });
    expect(body.month).toBe(new Date().toISOString().slice(0, 7));
    expect(body.measures.teamVolume).toBe('670');
    expect(body.rewards).toEqual({ today: '0', currentMonth: '0', total: '0' });
  });

  it('the root has no sponsor; ann does not qualify with one new paying partner', async () => {
    expect((await get(t.root, '/partners/')).json().sponsor).toBeNull();
    const ann = (await get(cast.ann, '/partners/')).json();
    expect(ann.sponsor.uid).toBe(cast.viewer.uid);
    expect(ann.ranking).toMatchObject({ newPro1Partners: 1, qualified: false });
  });
});

describe('my partners list', () => {
  it('lists lines 1–3 newest first with each partner’s line, licence, team and own purchases', async () => {
    const res = await post(cast.viewer, '/partners/my_partners/current_month');
    const { partners, month, range, period } = res.json();
    expect(period).toBe('current_month');
    expect(month).toBe(new Date().toISOString().slice(0, 7));
    expect(range.from).toBe(startOfMonth().toISOString().slice(0, 10));
    expect(partners.total).toBe(7);
    const names = partners.items.map((p: { username: string }) => p.username);
    expect(names).not.toContain('tree_ann1a1');
    expect(names.at(-1)).toBe('tree_ben');
    const byName = Object.fromEntries(partners.items.map((p: { username: string }) => [p.username, p]));
    expect(byName.tree_ann).toMatchObject({
      uid: cast.ann.uid,
      line: 1,
      licenseLevel: 'PRO1',
      licenseActive: true,
      trading: false,
      directPartners: 2,
      teamSize: 4,
      personalVolume: '100',
    });
    expect(byName.tree_ben).toMatchObject({ line: 1, licenseLevel: 'FREE', trading: true, teamSize: 1 });
    expect(byName.tree_ann1a).toMatchObject({ line: 3, personalVolume: '50', directPartners: 1 });
  });

  it('narrows to one line, and to partners registered by the end of an earlier month', async () => {
    const line2 = (await post(cast.viewer, '/partners/my_partners/current_month?line=2')).json();
    expect(line2.partners.items.map((p: { username: string }) => p.username).sort()).toEqual([
      'tree_ann1',
      'tree_ann2',
      'tree_ben1',
    ]);
    const before = (await post(cast.viewer, '/partners/my_partners/last_month')).json();
    expect(before.partners.items.map((p: { username: string }) => p.username).sort()).toEqual([
      'tree_ann1a',
      'tree_ann2',
      'tree_ben',
    ]);
    expect(before.partners.items.every((p: { personalVolume: string }) => p.personalVolume === '0')).toBe(
      true,
    );
  });

  it('pages by 10 with load-more: every partner once, newest first', async () => {
    const leader = await t.createUser({ username: 'page_leader' });
    const base = Date.now() - 3_600_000;
    for (let i = 0; i < 12; i++) {
      const partner = await t.createUser({ username: `page_p${i}`, sponsorId: leader.id });
      await registeredAt(partner, new Date(base + i * 60_000));
    }
    const first = (await post(leader, '/partners/my_partners/current_month')).json().partners;
    const second = (await post(leader, '/partners/my_partners/current_month?page=2')).json().partners;
    expect(first).toMatchObject({ page: 1, limit: 10, total: 12, hasMore: true });
    expect(second).toMatchObject({ page: 2, limit: 10, total: 12, hasMore: false });
    const names = [...first.items, ...second.items].map((p: { username: string }) => p.username);
    expect(names).toEqual(Array.from({ length: 12 }, (_, i) => `page_p${11 - i}`));
    const third = (await post(leader, '/partners/my_partners/current_month?page=3')).json().partners;
    expect(third).toMatchObject({ items: [], total: 12, hasMore: false });
  });
});

describe('structure tree', () => {
  const tree = (user: User, query = '', body: object = {}) =>
    post(user, `/partners/my_partners/structure${query}`, body);

  it('opens line 1 oldest first, then any node of the downline one level at a time', async () => {
    const top = await tree(cast.viewer);
    expect(top.statusCode).toBe(200);
    expect(top.json().map((n: { username: string }) => n.username)).toEqual([
      'tree_ben',
      'tree_ann',
      'tree_cat',
    ]);
    expect(top.json()[1]).toMatchObject({
      user_id: cast.ann.uid,
      line: 1,
      licenseLevel: 'PRO1',
      licenseActive: true,
      directPartners: 2,
      teamSize: 4,
      hasChildren: true,
      children: [],
    });
    expect(top.json()[2]).toMatchObject({ hasChildren: false, teamSize: 0 });
    const ann = (await tree(cast.viewer, `?required_id=${cast.ann.uid}`)).json();
    expect(ann.map((n: { username: string; line: number }) => [n.username, n.line])).toEqual([
      ['tree_ann2', 2],
      ['tree_ann1', 2],
    ]);
    const deep = (await tree(cast.viewer, `?required_id=${cast.ann1a.uid}`)).json();
    expect(deep).toEqual([
      expect.objectContaining({ user_id: cast.ann1a1.uid, line: 4, hasChildren: false }),
    ]);
    const own = await tree(cast.viewer, `?required_id=${cast.viewer.uid}`, { user_id: cast.viewer.uid });
    expect(own.json()).toEqual(top.json());
  });

  it('refuses nodes outside the downline (404) and another user’s id in the body (403)', async () => {
    for (const other of [cast.stranger, cast.stranger1, t.root]) {
      const res = await tree(cast.viewer, `?required_id=${other.uid}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('PARTNER_NOT_FOUND');
    }
    expect((await tree(cast.ann, `?required_id=${cast.viewer.uid}`)).statusCode).toBe(404);
    expect((await tree(cast.ann, `?required_id=${cast.ben1.uid}`)).statusCode).toBe(404);
    expect((await tree(cast.viewer, '?required_id=99999999')).statusCode).toBe(404);
    const forbidden = await tree(cast.viewer, '', { user_id: cast.stranger.uid });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe('FORBIDDEN');
  });
});

describe('partner profile', () => {
  it('shows a partner of any depth with their own month', async () => {
    const res = await post(cast.viewer, `/partners/my_partners/profile?required_id=${cast.ann.uid}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      uid: cast.ann.uid,
      username: 'tree_ann',
      sponsor: { uid: cast.viewer.uid, username: 'tree_viewer' },
      line: 1,
      licenseLevel: 'PRO1',
      licenseActive: true,
      trading: false,
      coins: 0,
      directPartners: 2,
      teamSize: 4,
      measures: { personalVolume: '300', teamVolume: '370', activatedLicenses: 3 },
    });
    expect(Date.parse(res.json().licenseActiveUntil)).toBeGreaterThan(Date.now() + 300 * 86_400_000);
    const deep = await post(cast.ann, `/partners/my_partners/profile?required_id=${cast.ann1a1.uid}`);
    expect(deep.json()).toMatchObject({ line: 3, sponsor: { uid: cast.ann1a.uid } });
    const trading = await post(cast.ben, `/partners/my_partners/profile?required_id=${cast.ben1.uid}`);
    expect(trading.json()).toMatchObject({ line: 1, trading: false, coins: 0, licenseLevel: 'PRO1' });
  });

  it('is PARTNER_NOT_FOUND for an upline, a stranger, oneself and an unknown UID', async () => {
    const refused: [User, number][] = [
      [cast.ann1, cast.ann.uid],
      [cast.stranger, cast.cat.uid],
      [cast.cat, cast.cat.uid],
      [cast.ann2, 99_999_999],
    ];
    for (const [who, uid] of refused) {
      const res = await post(who, `/partners/my_partners/profile?required_id=${uid}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('PARTNER_NOT_FOUND');
    }
  });

  it('answers once per 1.5 s', async () => {
    const first = await post(t.root, `/partners/my_partners/profile?required_id=${cast.stranger1.uid}`);
    expect(first.statusCode).toBe(200);
    expect(first.json().line).toBe(2);
    const second = await post(t.root, `/partners/my_partners/profile?required_id=${cast.stranger1.uid}`);
    expect(second.statusCode).toBe(429);
  });
});

describe('referral link', () => {
  it('gives the mini app and bot links with an invitation in the user’s language', async () => {
    await t.prisma.userConfig.upsert({
      where: { userId_name: { userId: cast.cat.id, name: 'localization' } },
      update: { value: 'ru' },
      create: { userId: cast.cat.id, name: 'localization', value: 'ru' },
    });
    const res = await post(cast.cat, '/partners/link');
    expect(res.statusCode).toBe(200);
    const bot = t.ctx.env.BOT_USERNAME;
    expect(res.json()).toMatchObject({
      referralCode: cast.cat.referralCode,
      miniAppLink: `https://t.me/${bot}?startapp=ref_${cast.cat.referralCode}`,
      botLink: `https://t.me/${bot}?start=ref_${cast.cat.referralCode}`,
    });
    expect(res.json().shareText).toMatch(/[а-я]/);
  });
});

describe('rewards', () => {
  it('sums the bonuses credited to the main balance by kind and day; nothing else counts', async () => {
    const viewer = cast.viewer;
    const main = userAccountCode(viewer.id, 'main');
    const bonus = (key: string, type: 'referral_bonus' | 'matching_bonus', usdt: string, memo: object) =>
      transfer(t.prisma, {
        idempotencyKey: key,
        type,
        memo: memo as never,
        legs: [
          { account: SYSTEM_ACCOUNTS.house, amount: -toMicro(usdt) },
          { account: main, amount: toMicro(usdt) },
        ],
      });
    await fundWallet(t.prisma, { userId: viewer.id, deposit: '5', fee: '1', key: `rewards:${viewer.id}` });
    await bonus('rb:1', 'referral_bonus', '30', { purchase: 1, line: 1 });
    await bonus('rb:2', 'referral_bonus', '8.000001', { purchase: 2, line: 2 });
    await bonus('mb:1', 'matching_bonus', '1.5', { day: 'today' });
    await bonus('ne:1', 'referral_bonus', '10', { bonus: 'network_expansion', month: '2026-10' });

    const today = (await post(viewer, '/partners/my_rewards')).json();
    const date = new Date().toISOString().slice(0, 10);
    expect(today).toEqual({
      period: 'today',
      range: { from: date, to: date },
      total: '49.500001',
      referral: '38.000001',
      matching: '1.5',
      networkExpansion: '10',
      days: [{ date, referral: '38.000001', matching: '1.5', networkExpansion: '10', total: '49.500001' }],
    });
    const yesterday = (await post(viewer, '/partners/my_rewards?period=yesterday')).json();
    expect(yesterday).toMatchObject({ total: '0', days: [] });
    const all = (await post(viewer, '/partners/my_rewards?period=all')).json();
    expect(all).toMatchObject({ total: '49.500001', range: { from: null, to: date } });
    const overview = (await get(viewer, '/partners/')).json();
    expect(overview.rewards).toEqual({ today: '49.500001', currentMonth: '49.500001', total: '49.500001' });
    // Another bonus shows at once: the cached figures are keyed by the newest entry of the balance.
    await bonus('mb:2', 'matching_bonus', '0.5', { day: 'today' });
    expect((await post(viewer, '/partners/my_rewards')).json().matching).toBe('2');
    await expectBooksIntact(t.prisma);
  });
});

describe('caches', () => {
  it('serve the figures again until a registration or a purchase changes the tree', async () => {
    const leader = await t.createUser({ username: 'cache_leader' });
    const partner = await t.createUser({ username: 'cache_partner', sponsorId: leader.id });
    const overview = async () => (await get(leader, '/partners/')).json();
    expect((await overview()).measures.freeLicenseNonTrading).toBe(1);
    // Not a registration nor a purchase: the cached month stands (the TTL bounds it).
    await t.prisma.user.update({ where: { id: partner.id }, data: { licenseLevel: 'PRO1' } });
    expect((await overview()).measures.freeLicenseNonTrading).toBe(1);

    // A registration through the referral link: the new partner counts at once.
    const login = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: {
        _auth: t.launchData(
          { telegramId: 990_001n, username: 'cache_newcomer' },
          { startParam: `ref_${partner.referralCode}` },
        ),
      },
    });
    expect(login.statusCode).toBe(200);
    const afterRegistration = await overview();
    expect(afterRegistration.team).toEqual({ line1: 1, line2: 1, line3: 0, total: 2 });
    expect(afterRegistration.measures.freeLicenseNonTrading).toBe(1);
    const tree = await post(leader, `/partners/my_partners/structure?required_id=${partner.uid}`);
    expect(tree.json().map((n: { username: string }) => n.username)).toEqual(['cache_newcomer']);

    // A purchase: the volume counts at once.
    const newcomer = await t.prisma.user.findUniqueOrThrow({ where: { usernameKey: 'cache_newcomer' } });
    await buyLicense(newcomer, '100');
    const afterPurchase = await overview();
    expect(afterPurchase.measures).toMatchObject({ teamVolume: '100', generation2Volume: '100' });
    expect(afterPurchase.measures.freeLicenseNonTrading).toBe(0);
    await expectBooksIntact(t.prisma);
  });
});

describe('bad input', () => {
  it('gets a 4xx and changes nothing', async () => {
    const before = { money: await moneySnapshot(t.prisma), users: await t.prisma.user.count() };
    const refused: [string, string, 'GET' | 'POST'][] = [
      ['period', '/partners/my_partners/bogus', 'POST'],
      ['month 13', '/partners/my_partners/2026-13', 'POST'],
      ['line 4', '/partners/my_partners/current_month?line=4', 'POST'],
      ['page 0', '/partners/my_partners/current_month?page=0', 'POST'],
      ['limit 101', '/partners/my_partners/current_month?limit=101', 'POST'],
      ['required_id', '/partners/my_partners/structure?required_id=abc', 'POST'],
      ['negative id', '/partners/my_partners/structure?required_id=-3', 'POST'],
      ['reward period', '/partners/my_rewards?period=tomorrow', 'POST'],
      ['reward month', '/partners/my_rewards?period=2026-00', 'POST'],
      ['profile without id', '/partners/my_partners/profile', 'POST'],
    ];
    for (const [name, url, method] of refused) {
      const res = await t.app.inject({ method, url, ...(await headers(cast.ben1)) });
      expect(res.statusCode, name).toBe(400);
      expect(res.json()).toMatchObject({ error: true, code: 'VALIDATION' });
    }
    const anonymous = await t.app.inject({ method: 'GET', url: '/partners/' });
    expect(anonymous.statusCode).toBe(401);
    expect({ money: await moneySnapshot(t.prisma), users: await t.prisma.user.count() }).toEqual(before);
  });
});
