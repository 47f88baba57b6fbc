import type { User } from '@gridbot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app';
import { balanceOf, bookDeposit, expectBooksIntact, moneySnapshot } from './support/wallet-fixtures';

/**
 * The recipient of an internal transfer without a directory (docs/wallet.md#internal-transfer):
 * the lookup confirms a UID with the username masked, UIDs are read strictly, and UIDs nobody has
 * are budgeted per user, so the sequential UIDs cannot be walked into a list of handles.
 */

const MISSES = 3;
let t: TestApp;
let nextAddress = 1;

beforeAll(async () => {
  t = await createTestApp({ RECIPIENT_MISSES_PER_DAY: String(MISSES) });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const as = async (user: User) => {
  const headers = await t.authHeader(user);
  return (url: string, extra: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...headers, ...extra },
      remoteAddress: `10.7.${(nextAddress >> 8) & 255}.${nextAddress++ & 255}`,
    });
};

/** The highest UID anyone has: UIDs above it name nobody. */
const unknownUid = async (offset: number) => {
  const top = await t.prisma.user.aggregate({ _max: { uid: true } });
  return (top._max.uid ?? 100_000) + 1_000 + offset;
};

describe('the recipient is confirmed, not revealed', () => {
  it('answers the UID with the username masked, in the lookup, the transfer and the sender’s list', async () => {
    const sender = await t.createUser({ username: 'sender_one' });
    const recipient = await t.createUser({ username: 'demo_trader' });
    await bookDeposit(t.prisma, sender, '10');
    const post = await as(sender);

    const lookup = await post(`/wallet/recipient?uid=${recipient.uid}`);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toEqual({ uid: recipient.uid, maskedUsername: 'de…er' });
    expect(lookup.body).not.toContain('demo_trader');

    const sent = await post(`/wallet/inner_transaction?summ=2&to_user=${recipient.uid}`);
    expect(sent.statusCode).toBe(200);
    expect(sent.json().recipient).toEqual({ uid: recipient.uid, maskedUsername: 'de…er' });
    expect(sent.body).not.toContain('demo_trader');
    const list = await post('/wallet');
    expect(list.body).not.toContain('demo_trader');
    expect(list.json().transactions.items[0]).toMatchObject({
      type: 'transfer_out',
      counterparty: { uid: recipient.uid, username: 'de…er' },
    });

    // The recipient was sent money by the sender, who is named in full on their side.
    const theirs = await (await as(recipient))('/wallet');
    expect(theirs.json().transactions.items[0]).toMatchObject({
      type: 'transfer_in',
      counterparty: { uid: sender.uid, username: 'sender_one' },
    });
  });

  it('masks short names too, never showing a whole one', async () => {
    const sender = await t.createUser({ username: 'sender_two' });
    const post = await as(sender);
    const short = await t.createUser({ username: 'bob' });
    const lookup = await post(`/wallet/recipient?uid=${short.uid}`);
    expect(lookup.json()).toEqual({ uid: short.uid, maskedUsername: 'b…' });
  });
});

describe('UIDs are read strictly', () => {
  it('refuses every other spelling of a real UID with 400 in the user language, reaching nobody', async () => {
    const sender = await t.createUser({ username: 'strict_sender' });
    const target = await t.createUser({ username: 'strict_target' });
    await bookDeposit(t.prisma, sender, '10');
    const uid = target.uid;
    const forms = [
      `0x${uid.toString(16)}`,
      `0X${uid.toString(16)}`,
      `${uid}e0`,
      '1e5',
      `+${uid}`,
      `${uid}.0`,
      ` ${uid}`,
      `${uid} `,
      `0${uid}`,
      `${uid}\u00a0`,
      '-0',
      '2147483648',
    ];
    const before = await moneySnapshot(t.prisma);
    for (const form of forms) {
      // The lookup is 1 call per second and user: one prober per spelling.
      const prober = await t.createUser({ username: `strict_${forms.indexOf(form)}_prober` });
      for (const [who, url] of [
        [prober, `/wallet/recipient?uid=${encodeURIComponent(form)}`],
        [sender, `/wallet/inner_transaction?summ=1&to_user=${encodeURIComponent(form)}`],
      ] as const) {
        const post = await as(who);
        await t.prisma.userConfig.upsert({
          where: { userId_name: { userId: who.id, name: 'localization' } },
          create: { userId: who.id, name: 'localization', value: 'ru' },
          update: { value: 'ru' },
        });
        const res = await post(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toMatchObject({ code: 'VALIDATION' });
        expect(res.json().detail, url).toContain('Некоторые поля заполнены неверно');
        expect(res.body, url).not.toContain('strict_target');
      }
    }
    expect(await moneySnapshot(t.prisma)).toEqual(before);
    expect(await balanceOf(t.prisma, target, 'main')).toBe(0n);
    // The plain form is the one that reaches the user.
    const post = await as(sender);
    expect((await post(`/wallet/inner_transaction?summ=1&to_user=${uid}`)).statusCode).toBe(200);
    expect(await balanceOf(t.prisma, target, 'main')).toBe(1_000_000n);
    await expectBooksIntact(t.prisma);
  });
});

describe('lookups of UIDs nobody has are budgeted', () => {
  it(`an enumeration is stopped after ${MISSES} misses: then every lookup is 429, existing UIDs too`, async () => {
    const existing = await t.createUser({ username: 'existing_one' });
    const exhausted = async (post: Awaited<ReturnType<typeof as>>, url: string) => {
      const before = await moneySnapshot(t.prisma);
      const res = await post(url, { 'accept-language': 'en' });
      expect(res.statusCode, url).toBe(429);
      expect(res.json(), url).toMatchObject({ code: 'RECIPIENT_LOOKUPS_EXHAUSTED', status: 429 });
      expect(res.json().detail, url).toContain('24 hours');
      expect(res.body, url).not.toContain('existing_one');
      expect(await moneySnapshot(t.prisma)).toEqual(before);
    };

    // Lookup misses and transfer misses spend one budget.
    const prober = await t.createUser({ username: 'prober_one' });
    await bookDeposit(t.prisma, prober, '10');
    const post = await as(prober);
    const first = await post(`/wallet/recipient?uid=${await unknownUid(1)}`);
    expect(first.statusCode).toBe(404);
    expect(first.json().code).toBe('TRANSFER_RECIPIENT_MISSING');
    for (let i = 2; i <= MISSES; i += 1) {
      const miss = await post(`/wallet/inner_transaction?summ=1&to_user=${await unknownUid(i)}`);
      expect(miss.json().code).toBe('TRANSFER_RECIPIENT_MISSING');
    }
    await exhausted(post, `/wallet/inner_transaction?summ=1&to_user=${await unknownUid(9)}`);
    // A transfer to an existing UID still goes through: it costs the prober money, which the
    // recipient keeps, and shows the masked name only.
    const paid = await post(`/wallet/inner_transaction?summ=1&to_user=${existing.uid}`);
    expect(paid.statusCode).toBe(200);
    expect(paid.body).not.toContain('existing_one');

    // Past the budget the lookup no longer confirms anybody (the call allows 1 per second: a
    // prober of its own whose first lookup this is).
    const walker = await t.createUser({ username: 'prober_two' });
    const walk = await as(walker);
    for (let i = 1; i <= MISSES; i += 1) {
      const miss = await walk(`/wallet/inner_transaction?summ=1&to_user=${await unknownUid(10 + i)}`);
      expect(miss.json().code).toBe('TRANSFER_RECIPIENT_MISSING');
    }
    await exhausted(walk, `/wallet/recipient?uid=${existing.uid}`);

    // Another user's budget is their own.
    const other = await t.createUser({ username: 'other_user' });
    const theirs = await (await as(other))(`/wallet/recipient?uid=${existing.uid}`);
    expect(theirs.statusCode).toBe(200);
  });

  it('does not spend the budget on recipients that exist, nor on refused input', async () => {
    const sender = await t.createUser({ username: 'honest_one' });
    await bookDeposit(t.prisma, sender, '20');
    const post = await as(sender);
    const friends = await Promise.all(
      Array.from({ length: MISSES + 2 }, (_, i) => t.createUser({ username: `friend_${i}_x` })),
    );
    for (const friend of friends) {
      expect((await post(`/wallet/inner_transaction?summ=1&to_user=${friend.uid}`)).statusCode).toBe(200);
    }
    for (let i = 0; i < MISSES + 2; i += 1) {
      expect((await post('/wallet/inner_transaction?summ=1&to_user=1e5')).statusCode).toBe(400);
    }
    expect((await post(`/wallet/inner_transaction?summ=1&to_user=${friends[0]?.uid}`)).statusCode).toBe(200);
  });
});
