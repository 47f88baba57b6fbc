import { createTestDb } from '@gridbot/db/testing';
import { checkInvariants } from '@gridbot/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceContext } from '../src/context/service-context';
import { seedDemo } from '../src/demo/seed-demo';
import { DEMO_TEAM } from '../src/demo/seed-demo-team';
import { getPartnerOverview } from '../src/partners/get-partner-overview';
import { getPartnerTree } from '../src/partners/get-partner-tree';
import { getPartnerRewards } from '../src/partners/get-rewards';
import { listPartners } from '../src/partners/list-partners';
import { createTestContext } from '../src/testing';

let db: Awaited<ReturnType<typeof createTestDb>>;
let ctx: ServiceContext;

beforeAll(async () => {
  db = await createTestDb();
  ctx = createTestContext({ prisma: db.prisma });
});
afterAll(async () => db.close());

describe('the demo team', () => {
  it('is three generations under the demo user with licence purchases and referral bonuses the ledger holds, seeded once', async () => {
    const { user } = await seedDemo(ctx);
    const counts = async () => ({
      users: await db.prisma.user.count(),
      transfers: await db.prisma.ledgerTransfer.count(),
    });
    const first = await counts();
    await seedDemo(ctx);
    expect(await counts()).toEqual(first);
    expect((await checkInvariants(db.prisma)).ok).toBe(true);

    const overview = await getPartnerOverview(ctx, { userId: user.id });
    expect(overview.team).toEqual({ line1: 6, line2: 10, line3: 8, total: 24 });
    const monthStart = new Date(`${overview.month}-01T00:00:00.000Z`).getTime();
    const registeredThisMonth = DEMO_TEAM.filter((p) => Date.now() - p.daysAgo * 86_400_000 >= monthStart);
    expect(overview.measures).toEqual({
      // Line 1: PRO2 300 + PRO1 100 + PRO3 600 + PRO1 100; line 2: six purchases; line 3: five.
      personalVolume: '1100',
      teamVolume: '2600',
      generation1Volume: '1100',
      generation2Volume: '800',
      generation3Volume: '700',
      newPersonalRegistrations: registeredThisMonth.filter((p) => p.sponsor === 'demo').length,
      newTeamRegistrations: registeredThisMonth.length,
      freeLicenseNonTrading: DEMO_TEAM.filter((p) => p.level === 'FREE').length,
      activatedLicenses: DEMO_TEAM.filter((p) => p.level !== 'FREE').length,
    });

    const [row] = await db.prisma.$queryRawUnsafe<{ paid: string }[]>(
      `SELECT (-sum(e.amount))::text AS paid FROM ledger_entries e JOIN ledger_transfers t ON t.id = e.transfer_id
        WHERE t.type = 'license_purchase' AND e.amount < 0`,
    );
    expect(row?.paid).toBe('2600000000');

    // The licence service paid the demo user's referral bonus: 30 % of line 1, 8 % of line 2, 5 % of line 3.
    const rewards = await getPartnerRewards(ctx, { userId: user.id, period: 'today' });
    expect(rewards).toMatchObject({ referral: '429', matching: '0', networkExpansion: '0', total: '429' });
    expect(overview.rewards.today).toBe('429');

    const top = await getPartnerTree(ctx, { userId: user.id, uid: user.uid });
    expect(top.map((node) => node.username)).toEqual([
      'maria_grid',
      'ivan_trades',
      'li_wei',
      'sam_hodl',
      'olga_btc',
      'tom_steps',
    ]);
    expect(top[0]).toMatchObject({
      licenseLevel: 'PRO2',
      licenseActive: true,
      directPartners: 3,
      teamSize: 6,
    });
    const list = await listPartners(ctx, { userId: user.id, period: 'current_month', page: 3, limit: 10 });
    expect(list.partners).toMatchObject({ total: 24, hasMore: false });
    expect(list.partners.items).toHaveLength(4);
  });
});
