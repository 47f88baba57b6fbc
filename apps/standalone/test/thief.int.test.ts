import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkInvariants, SYSTEM_ACCOUNTS, toMicro, userAccountCode } from '@gridbot/ledger';
import { DEMO_ACCOUNTS, DEMO_WITHDRAW_ADDRESS } from '@gridbot/services';
import { afterAll, describe, expect, it } from 'vitest';
import { type Standalone, startStandalone } from '../src/start-standalone';

/**
 * The "Done when" (docs/wallet.md#protections): a stolen session changes the address and
 * withdraws the whole balance in pieces — the new address is locked, the allowance stops the rest,
 * the owner's Telegram notice leaves before any broadcast, and a freeze stops the automatically
 * approved one. Everything runs as `npm start` runs it: the API over HTTP, the watcher against the
 * sandbox TRON node, the bot against the Bot API stand-in. The services' clock is moved forward to
 * stand for the hours and minutes that pass; events are ordered by the stand-ins' own records.
 */

/** The parts of the API's answers the thief reads. */
type Answer = {
  code?: string;
  until?: string;
  usableFrom?: string;
  withdrawal?: { id: string; status: string; address: string; reviewReason: string | null };
};

const dir = mkdtempSync(join(tmpdir(), 'standalone-thief-'));
const OPERATORS_CHAT = -1_009_876_543_210;
const THIEF = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
let running: Standalone | undefined;
afterAll(async () => {
  await running?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a thief with a stolen session', () => {
  it('cannot empty the wallet: locked address, allowance, the notice first, and the freeze', async () => {
    running = await startStandalone(
      {
        PGLITE_DIR: join(dir, 'pglite'),
        PORT: '0',
        SANDBOX_PORT: '0',
        LOG_LEVEL: 'warn',
        DEMO: '1',
        WATCHER_INTERVAL_MS: '200',
        BOT_NOTIFY_INTERVAL_MS: '200',
        WITHDRAW_AUTO_APPROVE_USDT: '100',
        WITHDRAW_RELEASE_DELAY_S: '120',
        WITHDRAW_ADDRESS_LOCK_HOURS: '24',
        OPERATOR_CHAT_ID: String(OPERATORS_CHAT),
        OPERATOR_TELEGRAM_IDS: '4242',
      },
      { sandboxTickMs: 0, tronBlockMs: 50, banner: false, clock },
    );
    const s = running;
    const { prisma } = s.ctx;
    const telegram = s.telegram!.telegram;
    const node = s.tron.tron;
    const chain = node.chain;
    const owner = await prisma.user.findUniqueOrThrow({
      where: { telegramId: DEMO_ACCOUNTS.user.telegramId },
    });
    const chat = Number(owner.telegramId);
    const wallet = await prisma.wallet.findUniqueOrThrow({ where: { userId: owner.id } });
    const main = async () =>
      (await prisma.ledgerAccount.findUniqueOrThrow({ where: { code: userAccountCode(owner.id, 'main') } }))
        .balance;

    // The session: the demo's signed launch data, signed in over HTTP (what a thief would hold).
    const launch = (await (await fetch(`${s.url}/demo/launch-data`)).json()) as { initData: string };
    const login = await fetch(`${s.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ _auth: launch.initData }),
    });
    const { token } = (await login.json()) as { token: string };
    const call = async (path: string) => {
      const response = await fetch(`${s.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      return { status: response.status, body: (await response.json()) as Answer };
    };
    const noticesTo = (text: string) => telegram.messagesTo(chat).filter((m) => m.text.includes(text));
    const waitNotice = (text: string, count = 1) =>
      telegram.waitFor(() => (noticesTo(text).length >= count ? noticesTo(text) : undefined), 30_000, text);
    const withdrawalRow = (id: string) => prisma.withdrawal.findUniqueOrThrow({ where: { id: Number(id) } });

    // Money on the owner's wallet, deposited on chain and credited by the watcher.
    const before = await main();
    node.send({ to: wallet.depositAddress, amount: '300' });
    await expect.poll(main, { timeout: 60_000, interval: 200 }).toBe(before + toMicro('300'));

    // The owner's own withdrawal first: its notice leaves before its transaction reaches the node.
    const own = await call('/wallet/withdraw_money?summ=15');
    expect(own.body.withdrawal).toMatchObject({ status: 'approved', address: DEMO_WITHDRAW_ADDRESS });
    const [ownNotice] = await waitNotice('Withdrawal requested: 15 USDT');
    offsetMs += 2 * MINUTE + 1000;
    await expect
      .poll(async () => (await withdrawalRow(own.body.withdrawal!.id)).status, {
        timeout: 60_000,
        interval: 200,
      })
      .toBe('confirmed');
    const ownTx = (await withdrawalRow(own.body.withdrawal!.id)).txid!;
    expect(ownNotice!.sent_at).toBeLessThan(chain.arrivedAt(ownTx)!);
    const start = await main();

    // 1. The thief changes the address: it is locked, and the owner is told at once.
    const changed = await call(`/wallet/update_withdraw_address?address=${THIEF}`);
    expect(changed.status).toBe(200);
    await waitNotice(`Your withdrawal address was changed: ${THIEF}`);
    const locked = await call(`/wallet/withdraw_money?summ=${Number(start / 1_000_000n)}`);
    expect(locked).toMatchObject({
      status: 423,
      body: { code: 'WITHDRAW_ADDRESS_LOCKED', until: changed.body.usableFrom },
    });
    expect(await main()).toBe(start);

    // 2. The owner does not look for a day; then the thief takes everything in pieces of 90.
    offsetMs += 24 * HOUR + MINUTE;
    const pieces: Array<{ status: number; body: Answer }> = [];
    let left = start;
    while (left >= toMicro('11')) {
      const piece = left > toMicro('90') ? toMicro('90') : left;
      pieces.push(await call(`/wallet/withdraw_money?summ=${Number(piece) / 1_000_000}`));
      left -= piece;
    }
    expect(pieces.every((p) => p.status === 200)).toBe(true);
    const statuses = pieces.map((p) => p.body.withdrawal!.status);
    // The allowance (100 a day) lets one piece go alone; the rest waits for an operator.
    expect(statuses[0]).toBe('approved');
    expect(statuses.slice(1).every((x) => x === 'pending')).toBe(true);
    expect(pieces.slice(1).every((p) => p.body.withdrawal!.reviewReason === 'over the 24 h allowance')).toBe(
      true,
    );
    await telegram.waitFor(
      () => (telegram.messagesTo(OPERATORS_CHAT).length >= pieces.length - 1 ? true : undefined),
      30_000,
      'the operators chat',
    );

    // 3. The owner hears of every request before anything is broadcast, and freezes.
    const broadcastsBefore = chain.broadcasts.length;
    const [notice] = await waitNotice(`Withdrawal requested: 90 USDT to ${THIEF}`);
    expect(chain.broadcasts.length).toBe(broadcastsBefore);
    const press = await fetch(`${s.telegram!.url}/_sandbox/telegram/callbacks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        from: { id: chat },
        chatId: chat,
        messageId: notice!.message_id,
        data: `freeze:${owner.uid}`,
      }),
    });
    expect(press.status).toBe(200);
    await waitNotice('Withdrawals are frozen');

    // 4. Every piece is stopped and refunded exactly; the release time passes and nothing leaves.
    const rows = await prisma.withdrawal.findMany({
      where: { id: { in: pieces.map((p) => Number(p.body.withdrawal!.id)) } },
    });
    expect(
      rows.every((r) => r.status === 'rejected' && r.reason === 'stopped: withdrawals were frozen'),
    ).toBe(true);
    expect(await main()).toBe(start);
    offsetMs += 10 * MINUTE;
    await s.watcher.runOnce();
    await s.watcher.runOnce();
    // Nothing of the withdrawals was signed or sent (the watcher may sweep the deposit meanwhile: a
    // transfer inside the platform's wallet, not counted here).
    const after = await prisma.withdrawal.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
    expect(after.every((r) => r.status === 'rejected' && r.txid === null && r.signedTx === null)).toBe(true);
    expect(node.balances(THIEF).usdt).toBe('0');
    expect((await call('/wallet/withdraw_money?summ=20')).body.code).toBe('WITHDRAWALS_FROZEN');

    // The books: every balance sums to zero, nothing is held for the stopped pieces.
    expect((await checkInvariants(prisma)).ok).toBe(true);
    const held = await prisma.ledgerAccount.findUniqueOrThrow({
      where: { code: SYSTEM_ACCOUNTS.withdrawalsHeld },
    });
    expect(held.balance).toBe(0n);
    expect(await main()).toBe(start);
  }, 240_000);
});
