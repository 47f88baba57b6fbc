import type { User } from '@gridbot/db';
import { ensureAccount, SYSTEM_ACCOUNTS, toMicro, transfer, userAccountCode } from '@gridbot/ledger';
import { getWalletOverview, listPortfolioCoinTrades, walletTransactionsByKeyset } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoinBot } from './support/coin-bot-fixtures';
import { createTestApp, type TestApp } from './support/test-app';
import { bookDeposit } from './support/wallet-fixtures';

/**
 * Load-more lists paged by cursor (docs/decisions.md#lists-paged-by-cursor-issue-22): rows that
 * arrive at the top between two page requests shift nothing below, so paging on by `nextCursor`
 * shows every row that was there once — none repeated, none skipped.
 */

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await ensureAccount(t.prisma, SYSTEM_ACCOUNTS.fees);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

let fees = 0;
/** A trading fee booked now: a new line at the top of the user's list. */
const chargeFee = (user: User) => {
  fees += 1;
  return transfer(t.prisma, {
    idempotencyKey: `keyset-fee:${user.id}:${fees}`,
    type: 'trade_fee',
    memo: { coin: 'XRP', lotId: fees },
    legs: [
      { account: userAccountCode(user.id, 'fee'), amount: -toMicro('0.1') },
      { account: SYSTEM_ACCOUNTS.fees, amount: toMicro('0.1') },
    ],
  });
};

/** Every page from the first, by cursor; `between` runs after each page (new rows arrive). */
const allPages = async <T>(
  read: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor: string | null }>,
  between: () => Promise<unknown> = async () => undefined,
) => {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 50; pages++) {
    const page = await read(cursor);
    items.push(...page.items);
    if (page.nextCursor === null) return items;
    cursor = page.nextCursor;
    await between();
  }
  throw new Error('more than 50 pages');
};

const idsOf = (items: readonly { id: string }[]) => items.map((item) => item.id);

type Listed<R> = { items: R[]; nextCursor: string | null; total: number };
type Page = Listed<{ id: string }>;

/** Reads a list's pages through the API as `user`: `url` with `&cursor=`, each answer as its rows' ids. */
const pagesOver = async <A>(user: User, url: string, pageOf: (answer: A) => Page) => {
  const headers = await t.authHeader(user);
  return async (cursor: string | undefined): Promise<Page> => {
    const answer = await t.app.inject({
      method: 'POST',
      url: `${url}${cursor ? `&cursor=${cursor}` : ''}`,
      headers,
    });
    expect(answer.statusCode).toBe(200);
    return pageOf(answer.json() as A);
  };
};

describe('wallet transactions by cursor', () => {
  it('transfers arriving while paging: every line once, in order; the first page is the spec’s page 1', async () => {
    const user = await t.createUser({ username: 'keyset_wallet', feeBalance: '100' });
    for (let i = 0; i < 9; i++) await chargeFee(user);
    // Three deposits seen at the same instant: the order among them is still unique.
    const seen = new Date(Date.now() - 60_000);
    for (let i = 0; i < 3; i++) {
      const deposit = await bookDeposit(t.prisma, user, '5', 'pending');
      await t.prisma.chainDeposit.update({ where: { id: deposit.id }, data: { createdAt: seen } });
    }
    const read = (limit: number) => (cursor: string | undefined) =>
      getWalletOverview(t.ctx, { userId: user.id, days: 30, page: 1, limit, cursor }).then(
        (wallet) => wallet.transactions,
      );
    const before = (await read(100)(undefined)).items;
    expect(before.filter((line) => line.type === 'trade_fee')).toHaveLength(9);
    expect(before.filter((line) => line.type === 'deposit' && line.status === 'pending')).toHaveLength(3);

    // Pages of 4, two new fees booked after every page.
    const paged = await allPages(read(4), async () => {
      await chargeFee(user);
      await chargeFee(user);
    });
    expect(idsOf(paged)).toEqual(idsOf(before));

    // Page 1 by cursor-less request is the spec's page 1, and says where page 2 starts.
    const first = await getWalletOverview(t.ctx, { userId: user.id, days: 30, page: 1, limit: 4 });
    const byPage = await getWalletOverview(t.ctx, { userId: user.id, days: 30, page: 2, limit: 4 });
    const byCursor = await getWalletOverview(t.ctx, {
      userId: user.id,
      days: 30,
      page: 1,
      limit: 4,
      cursor: first.transactions.nextCursor ?? undefined,
    });
    expect(first.transactions).toMatchObject({ page: 1, limit: 4, hasMore: true });
    expect(idsOf(byCursor.transactions.items)).toEqual(idsOf(byPage.transactions.items));
    expect(byCursor.transactions.total).toBe(first.transactions.total);
  });

  it('a type filter pages by cursor too', async () => {
    const user = await t.createUser({ username: 'keyset_filter', feeBalance: '100' });
    for (let i = 0; i < 5; i++) await chargeFee(user);
    await bookDeposit(t.prisma, user, '3', 'pending');
    const paged = await allPages(
      (cursor) =>
        getWalletOverview(t.ctx, {
          userId: user.id,
          days: 30,
          page: 1,
          limit: 2,
          cursor,
          type: 'trade_fee',
        }).then((wallet) => wallet.transactions),
      () => chargeFee(user),
    );
    expect(paged).toHaveLength(5);
    expect(new Set(idsOf(paged)).size).toBe(5);
    expect(paged.every((line) => line.type === 'trade_fee')).toBe(true);
  });

  it('walletTransactionsByKeyset iterates every line once while new ones are booked', async () => {
    const user = await t.createUser({ username: 'keyset_export', feeBalance: '100' });
    for (let i = 0; i < 7; i++) await chargeFee(user);
    const since = new Date(Date.now() - 86_400_000);
    const before = (await getWalletOverview(t.ctx, { userId: user.id, days: 1, page: 1, limit: 100 }))
      .transactions.items;
    const read = [];
    for await (const line of walletTransactionsByKeyset(t.prisma, { userId: user.id, since, batch: 2 })) {
      read.push(line);
      if (read.length % 2 === 0) await chargeFee(user);
    }
    expect(idsOf(read)).toEqual(idsOf(before));
  });

  it('a cursor that is not one of the list is a 400 VALIDATION, and changes nothing', async () => {
    for (const [name, cursor] of [
      ['keyset_bad1', 'not%20a%20cursor'],
      ['keyset_bad2', Buffer.from(JSON.stringify(['yesterday', 'x'])).toString('base64url')],
    ] as const) {
      const user = await t.createUser({ username: name });
      const answer = await t.app.inject({
        method: 'POST',
        url: `/wallet?days=30&limit=5&cursor=${cursor}`,
        headers: await t.authHeader(user),
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'VALIDATION' });
    }
  });
});

describe('the other load-more lists by cursor', () => {
  it('my partners: partners registering while paging are not repeated, none skipped', async () => {
    const leader = await t.createUser({ username: 'keyset_leader' });
    const base = Date.now() - 3_600_000;
    let joined = 0;
    const join = async (at: Date) => {
      joined += 1;
      const partner = await t.createUser({ username: `keyset_p${joined}`, sponsorId: leader.id });
      await t.prisma.user.update({ where: { id: partner.id }, data: { createdAt: at } });
      return partner;
    };
    // Five of them registered at the same instant.
    for (let i = 0; i < 7; i++) await join(new Date(base + Math.min(i, 2) * 60_000));
    const read = await pagesOver(
      leader,
      '/partners/my_partners/current_month?limit=3',
      (answer: { partners: Listed<{ uid: number }> }) => ({
        ...answer.partners,
        items: answer.partners.items.map((partner) => ({ id: String(partner.uid) })),
      }),
    );
    const before = (await read(undefined)).total;
    const paged = await allPages<{ id: string }>(read, () => join(new Date()));
    expect(paged).toHaveLength(before);
    expect(new Set(idsOf(paged)).size).toBe(before);
  });

  it('bonus history: a new day at the top while paging', async () => {
    const upline = await t.createUser({ username: 'keyset_upline' });
    const partner = await t.createUser({ username: 'keyset_trader', sponsorId: upline.id });
    let accruals = 0;
    const accrue = (day: string) => {
      accruals += 1;
      return t.prisma.matchingAccrual.create({
        data: {
          feeTransferId: BigInt(9_000_000 + accruals),
          partnerId: partner.id,
          uplineId: upline.id,
          generation: 1,
          fee: toMicro('1'),
          ratePct: '10',
          amount: toMicro('0.1'),
          day: new Date(`${day}T00:00:00Z`),
        },
      });
    };
    for (let day = 1; day <= 7; day++) await accrue(`2026-10-0${day}`);
    const read = await pagesOver(
      upline,
      '/partners/matching_bonus/history?limit=2',
      (answer: Listed<{ date: string }>) => ({
        ...answer,
        items: answer.items.map((day) => ({ id: day.date })),
      }),
    );
    let next = 10;
    const paged = await allPages<{ id: string }>(read, () => accrue(`2026-10-${next++}`));
    expect(idsOf(paged)).toEqual([
      '2026-10-07',
      '2026-10-06',
      '2026-10-05',
      '2026-10-04',
      '2026-10-03',
      '2026-10-02',
      '2026-10-01',
    ]);
  });

  it('closed deals: lots closing while paging are not repeated, none skipped', async () => {
    const user = await t.createUser({ username: 'keyset_deals' });
    const bot = await createCoinBot(t, user);
    let seq = 0;
    const close = (closedAt: Date) => {
      seq += 1;
      return t.prisma.lot.create({
        data: {
          coinBotId: bot.id,
          seq,
          buyPrice: '1',
          qty: '1',
          cost: '1',
          openedAt: new Date(closedAt.getTime() - 60_000),
          sellPrice: '1.1',
          proceeds: '1.1',
          pnl: '0.1',
          realizedPnl: '0.1',
          closedAt,
          tradeFee: toMicro('0.02'),
        },
      });
    };
    // Three of them closed at the same instant (one fill closing several lots).
    const base = Date.now() - 3_600_000;
    for (let i = 0; i < 6; i++) await close(new Date(base + Math.min(i, 3) * 60_000));
    const read = (cursor: string | undefined) =>
      listPortfolioCoinTrades(t.ctx, {
        userId: user.id,
        coinBotId: bot.id,
        status: 'closed',
        page: 1,
        limit: 2,
        cursor,
      }).then((answer) => ({ ...answer, items: answer.data.map((deal) => ({ id: deal.lotId })) }));
    const before = (await read(undefined)).total;
    const paged = await allPages(read, () => close(new Date()));
    expect(paged).toHaveLength(before);
    expect(new Set(idsOf(paged)).size).toBe(before);
  });
});
