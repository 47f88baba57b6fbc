import type { User } from '@gridbot/db';
import type { ServiceContext } from '../context/service-context';
import { updateUserLicense } from '../license/license-purchase';
import { fundWallet } from './fund-wallet';

/**
 * The demo user's team (docs/bonuses.md#demo-team): three generations — 6 personally invited
 * partners, 10 below them, 8 below those — registered over the last two months, on FREE or a
 * paid level bought from a funded main balance through the licence service (a `license_purchase`
 * transfer and the uplines' referral bonus), so every partner figure can be traced to the books.
 */
type DemoPartner = {
  username: string;
  firstName: string;
  /** The sponsor: the demo user, or an earlier partner of this list. */
  sponsor: 'demo' | string;
  daysAgo: number;
  level: 'FREE' | 'PRO1' | 'PRO2' | 'PRO3';
};

export const DEMO_TEAM: readonly DemoPartner[] = [
  { username: 'maria_grid', firstName: 'Maria', sponsor: 'demo', daysAgo: 58, level: 'PRO2' },
  { username: 'ivan_trades', firstName: 'Ivan', sponsor: 'demo', daysAgo: 51, level: 'PRO1' },
  { username: 'li_wei', firstName: 'Wei', sponsor: 'demo', daysAgo: 40, level: 'PRO3' },
  { username: 'sam_hodl', firstName: 'Sam', sponsor: 'demo', daysAgo: 26, level: 'FREE' },
  { username: 'olga_btc', firstName: 'Olga', sponsor: 'demo', daysAgo: 12, level: 'PRO1' },
  { username: 'tom_steps', firstName: 'Tom', sponsor: 'demo', daysAgo: 3, level: 'FREE' },
  { username: 'anna_ladder', firstName: 'Anna', sponsor: 'maria_grid', daysAgo: 50, level: 'PRO1' },
  { username: 'pedro_eth', firstName: 'Pedro', sponsor: 'maria_grid', daysAgo: 44, level: 'FREE' },
  { username: 'yuki_sol', firstName: 'Yuki', sponsor: 'maria_grid', daysAgo: 30, level: 'PRO2' },
  { username: 'dmitry_xrp', firstName: 'Dmitry', sponsor: 'ivan_trades', daysAgo: 47, level: 'PRO1' },
  { username: 'chen_bnb', firstName: 'Chen', sponsor: 'ivan_trades', daysAgo: 21, level: 'FREE' },
  { username: 'lucas_grid', firstName: 'Lucas', sponsor: 'li_wei', daysAgo: 35, level: 'PRO1' },
  { username: 'fatima_ada', firstName: 'Fatima', sponsor: 'li_wei', daysAgo: 18, level: 'PRO1' },
  { username: 'nina_dca', firstName: 'Nina', sponsor: 'li_wei', daysAgo: 9, level: 'FREE' },
  { username: 'omar_usdt', firstName: 'Omar', sponsor: 'olga_btc', daysAgo: 7, level: 'PRO1' },
  { username: 'kate_bot', firstName: 'Kate', sponsor: 'sam_hodl', daysAgo: 5, level: 'FREE' },
  { username: 'jonas_doge', firstName: 'Jonas', sponsor: 'anna_ladder', daysAgo: 42, level: 'FREE' },
  { username: 'mei_trx', firstName: 'Mei', sponsor: 'anna_ladder', daysAgo: 28, level: 'PRO1' },
  { username: 'raj_link', firstName: 'Raj', sponsor: 'yuki_sol', daysAgo: 22, level: 'PRO2' },
  { username: 'elena_avax', firstName: 'Elena', sponsor: 'dmitry_xrp', daysAgo: 33, level: 'PRO1' },
  { username: 'bruno_grid', firstName: 'Bruno', sponsor: 'lucas_grid', daysAgo: 15, level: 'FREE' },
  { username: 'sara_ltc', firstName: 'Sara', sponsor: 'fatima_ada', daysAgo: 10, level: 'PRO1' },
  { username: 'alex_dot', firstName: 'Alex', sponsor: 'fatima_ada', daysAgo: 4, level: 'FREE' },
  { username: 'hana_near', firstName: 'Hana', sponsor: 'omar_usdt', daysAgo: 2, level: 'PRO1' },
];

/** First Telegram id of the team (the demo cast uses 700000001–2). */
const TEAM_TELEGRAM_ID = 700_000_100n;
/** What a paying partner deposits: the licence price plus this much left on main. */
const DEMO_PARTNER_SPARE = 25;

/** Idempotent: partners are found by Telegram id, deposits and purchases by fixed keys. */
export const seedDemoTeam = async (ctx: ServiceContext, demoUser: User): Promise<User[]> => {
  const now = ctx.clock.now().getTime();
  const levels = await ctx.prisma.licenseLevel.findMany();
  const priceOf = (code: string) => Number(levels.find((level) => level.code === code)?.yearlyPrice ?? 0);
  const ids = new Map<string, number>([['demo', demoUser.id]]);
  const team: User[] = [];
  for (const [index, partner] of DEMO_TEAM.entries()) {
    const sponsorId = ids.get(partner.sponsor);
    if (sponsorId === undefined) throw new Error(`demo team: ${partner.username} listed before its sponsor`);
    const user = await ctx.prisma.user.upsert({
      where: { telegramId: TEAM_TELEGRAM_ID + BigInt(index) },
      update: {},
      create: {
        telegramId: TEAM_TELEGRAM_ID + BigInt(index),
        username: partner.username,
        usernameKey: partner.username.toLowerCase(),
        firstName: partner.firstName,
        referralCode: partner.username.replace('_', ''),
        sponsorId,
        createdAt: new Date(now - partner.daysAgo * 86_400_000),
        configs: { create: { name: 'localization', value: 'en' } },
      },
    });
    ids.set(partner.username, user.id);
    if (partner.level !== 'FREE') {
      const deposit = String(priceOf(partner.level) + DEMO_PARTNER_SPARE);
      await fundWallet(ctx.prisma, { userId: user.id, deposit, fee: '5', key: `demo:team:${user.id}` });
      // Through the licence service, so the uplines' referral bonuses are booked by the real code.
      if (user.licenseLevel !== partner.level) {
        await updateUserLicense(ctx, {
          userId: user.id,
          level: partner.level,
          idempotencyKey: `demo:license:${user.id}:${partner.level}`,
        });
      }
    }
    team.push(user);
  }
  return team;
};
