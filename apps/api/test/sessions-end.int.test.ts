import type { User } from '@gridbot/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOpsCli } from '../src/cli/ops-commands';
import { createTestApp, type TestApp } from './support/test-app';
import { balanceOf, bookDeposit } from './support/wallet-fixtures';

/**
 * Sessions that can end (docs/security.md#sessions): "sign out on all devices", the operator's
 * `users end-sessions|block|unblock`, deleted accounts, and launch data that is older than what the
 * account already knows.
 */

let t: TestApp;
let nextAddress = 1;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A read, a write and a money move, each from its own address (failed tokens count per address). */
const everyKind = (token: string) =>
  Promise.all(
    [
      ['GET', '/home/config/localization/get'],
      ['POST', '/home/config/theme/set?data=dark'],
      ['POST', '/wallet/inner_transaction?summ=5&to_user=100001'],
      ['POST', '/profile/'],
      ['POST', '/auth/logout_all'],
    ].map(async ([method, url]) => ({
      url: `${method} ${url}`,
      res: await t.app.inject({
        method: method as 'GET' | 'POST',
        url: url as string,
        headers: { ...bearer(token), 'accept-language': 'ru' },
        remoteAddress: `10.9.${(nextAddress >> 8) & 255}.${nextAddress++ & 255}`,
      }),
    })),
  );

const expectAllUnauthorized = async (token: string) => {
  for (const { url, res } of await everyKind(token)) {
    expect(res.statusCode, url).toBe(401);
    expect(res.json(), url).toMatchObject({ error: true, status: 401, code: 'UNAUTHORIZED' });
  }
};

const signIn = (user: User, authDate?: Date, username = user.username) =>
  t.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: {
      _auth: t.launchData({ telegramId: user.telegramId, username }, authDate ? { authDate } : {}),
    },
    headers: { 'accept-language': 'en' },
    remoteAddress: `10.8.${(nextAddress >> 8) & 255}.${nextAddress++ & 255}`,
  });

const secondsAgo = (s: number) => new Date(Date.now() - s * 1000);

const io = () => {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
};

/** The money of two users, to show a refused move moved nothing. */
const mainBalances = (...users: User[]) =>
  Promise.all(users.map((user) => balanceOf(t.prisma, user, 'main')));

describe('sign out on all devices', () => {
  it('ends the calling session and every other one: the same tokens get 401 on every kind of call', async () => {
    const user = await t.createUser({ username: 'ends_all' });
    const recipient = await t.createUser({ username: 'ends_all_to' });
    await bookDeposit(t.prisma, user, '50');
    const launched = await signIn(user, secondsAgo(5));
    expect(launched.statusCode).toBe(200);
    const phone = launched.json().token as string;
    const laptop = (await t.tokens.issue({ userId: user.id, uid: user.uid })).token;
    expect(
      (await t.app.inject({ method: 'POST', url: '/profile/', headers: bearer(laptop) })).statusCode,
    ).toBe(200);

    const ended = await t.app.inject({ method: 'POST', url: '/auth/logout_all', headers: bearer(phone) });
    expect(ended.statusCode).toBe(200);
    expect(ended.json()).toMatchObject({ ok: true });

    const before = await mainBalances(user, recipient);
    const transfer = await t.app.inject({
      method: 'POST',
      url: `/wallet/inner_transaction?summ=5&to_user=${recipient.uid}`,
      headers: bearer(laptop),
    });
    expect(transfer.statusCode).toBe(401);
    expect(await mainBalances(user, recipient)).toEqual(before);
    await expectAllUnauthorized(phone);
    await expectAllUnauthorized(laptop);
    // The theme write above was refused: nothing was stored.
    expect(await t.prisma.userConfig.count({ where: { userId: user.id, name: 'theme' } })).toBe(0);
  });

  it('refuses the launch data signed before the sign-out; the reopened mini app signs in again', async () => {
    const user = await t.createUser({ username: 'reopens' });
    const old = secondsAgo(30);
    const first = (await signIn(user, old)).json().token as string;
    await t.app.inject({ method: 'POST', url: '/auth/logout_all', headers: bearer(first) });

    const replay = await signIn(user, old);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('INIT_DATA_INVALID');

    // Telegram signs new launch data when the mini app is opened again.
    const reopened = await signIn(user, new Date(Date.now() + 2000));
    expect(reopened.statusCode).toBe(200);
    const fresh = reopened.json().token as string;
    const read = await t.app.inject({
      method: 'GET',
      url: '/home/config/localization/get',
      headers: bearer(fresh),
    });
    expect(read.statusCode).toBe(200);
    await expectAllUnauthorized(first);
  });
});

describe('operator: users end-sessions, block, unblock', () => {
  it('end-sessions: the account signs in again, its old tokens are 401', async () => {
    const user = await t.createUser({ username: 'op_ends' });
    const token = (await t.tokens.issue({ userId: user.id, uid: user.uid })).token;
    const cli = io();
    expect(await runOpsCli(t.ctx, ['users', 'end-sessions', String(user.uid)], cli.io, 'alice')).toBe(0);
    expect(cli.out.join('\n')).toContain('sessions ended by operator:alice');
    await expectAllUnauthorized(token);
  });

  it('block: the token is 401 at once, sign-in is 403 ACCOUNT_BLOCKED in the user language; unblock lets a new sign-in in', async () => {
    const user = await t.createUser({ username: 'op_blocks' });
    await bookDeposit(t.prisma, user, '20');
    const token = (await t.tokens.issue({ userId: user.id, uid: user.uid })).token;
    const cli = io();
    expect(
      await runOpsCli(
        t.ctx,
        ['users', 'block', String(user.uid), '--reason', 'chargeback fraud'],
        cli.io,
        'ops',
      ),
    ).toBe(0);
    expect(cli.out.join('\n')).toContain('blocked since');
    await expectAllUnauthorized(token);

    const refused = await t.app.inject({
      method: 'POST',
      url: '/auth/login',
      payload: { _auth: t.launchData({ telegramId: user.telegramId, username: user.username }) },
      headers: { 'accept-language': 'ru' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'ACCOUNT_BLOCKED', message: 'Account blocked' });
    expect(refused.json().detail).toContain('заблокирован');

    expect(await runOpsCli(t.ctx, ['users', 'unblock', String(user.uid)], io().io, 'ops')).toBe(0);
    // Sessions from before the block stay ended; a new sign-in works.
    await expectAllUnauthorized(token);
    const back = await signIn(user, new Date(Date.now() + 2000));
    expect(back.statusCode).toBe(200);
  });

  it('refuses an unknown UID, a block without a reason and malformed words, changing nothing', async () => {
    const user = await t.createUser({ username: 'op_usage' });
    const unknown = io();
    expect(await runOpsCli(t.ctx, ['users', 'block', '2000000000', '--reason', 'x'], unknown.io)).toBe(1);
    expect(unknown.err.join('\n')).toContain('NO_USER');
    for (const argv of [
      ['users', 'block', String(user.uid)],
      ['users', 'block', String(user.uid), '--reason', '  '],
      ['users', 'end-sessions'],
      ['users', 'end-sessions', '0x186a1'],
      ['users', 'unblock', '1e5'],
      ['users', 'delete', String(user.uid)],
    ]) {
      const usage = io();
      expect(await runOpsCli(t.ctx, argv, usage.io), argv.join(' ')).toBe(2);
      expect(usage.err.join('\n')).toContain('usage');
    }
    const row = await t.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row).toMatchObject({ blockedAt: null, sessionsValidFrom: null });
  });
});

describe('deleted accounts', () => {
  it('a token of a deleted user is 401 on every kind of call', async () => {
    const user = await t.createUser({ username: 'deleted_one' });
    const token = (await t.tokens.issue({ userId: user.id, uid: user.uid })).token;
    await t.prisma.user.delete({ where: { id: user.id } });
    await expectAllUnauthorized(token);
  });
});

describe('usernames from launch data', () => {
  it('launch data signed before a rename does not write the old username back', async () => {
    const user = await t.createUser({ username: 'old_name' });
    const renamed = await signIn(user, secondsAgo(60), 'new_name');
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().user.username).toBe('new_name');

    // The launch data from before the rename is still within its 24 hours and correctly signed.
    const replayed = await signIn(user, secondsAgo(600), 'old_name');
    expect(replayed.statusCode).toBe(200);
    expect(replayed.json().user.username).toBe('new_name');
    const row = await t.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row).toMatchObject({ username: 'new_name', usernameKey: 'new_name' });

    // A newer rename is taken.
    const again = await signIn(user, secondsAgo(1), 'newest_name');
    expect(again.json().user.username).toBe('newest_name');
  });
});
