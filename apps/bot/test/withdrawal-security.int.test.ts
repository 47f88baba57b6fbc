import { openAccounts, SYSTEM_ACCOUNTS, toMicro } from '@gridbot/ledger';
import {
  approveWithdrawal,
  botTexts,
  fundWallet,
  holdWithdrawal,
  notificationText,
  queuePendingAlert,
  queueRequestNotice,
  REVIEW_REASONS,
} from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningBot } from '../src/start-bot';
import { type BotHarness, createBotHarness, MINI_APP_URL } from './support/bot-harness';

/**
 * The bot's side of the withdrawal protections, over HTTP against the Bot API stand-in: the
 * owner's notices with the one-tap freeze (docs/wallet.md#freeze), and the operators' chat where
 * pending withdrawals are approved or rejected (docs/operations.md#operators-chat). Presses come
 * through the stand-in's control API as `callback_query` updates, as Telegram delivers them.
 */

const OPERATORS_CHAT = -1_001_234_567_890;
const OPERATOR = 5_550_001;
const STRANGER = 7_770_001;

let h: BotHarness;
let bot: RunningBot;
beforeAll(async () => {
  h = await createBotHarness({
    OPERATOR_CHAT_ID: String(OPERATORS_CHAT),
    OPERATOR_TELEGRAM_IDS: `${OPERATOR}, 5550002`,
  });
  bot = await h.bot({ poll: true });
}, 60_000);
afterAll(async () => {
  await h?.close();
});

/** A press of a callback button, through the stand-in's control API over HTTP. */
const press = async (
  from: { id: number; username?: string },
  chatId: number,
  messageId: number,
  data: string,
) => {
  const response = await fetch(`${h.telegram.url}/_sandbox/telegram/callbacks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ from, chatId, messageId, data }),
  });
  expect(response.status).toBe(200);
  const update = (await response.json()) as { callback_query: { id: string } };
  const id = update.callback_query.id;
  return h.telegram.telegram.waitFor(
    () => h.telegram.telegram.callbackAnswer(id),
    10_000,
    `answer to ${data}`,
  );
};

/** A withdrawal held from main and waiting for an operator, with its alert (what the API writes). */
const pendingWithdrawal = async (userId: number, usdt: string) => {
  await fundWallet(h.prisma, { userId, deposit: '500', fee: '0.000001', key: `fund:${userId}:${usdt}` });
  return h.prisma.$transaction(async (tx) => {
    await openAccounts(tx, [SYSTEM_ACCOUNTS.withdrawalsHeld, SYSTEM_ACCOUNTS.withdrawalFees]);
    const requestKey = `k${userId}${usdt}`;
    const hold = await holdWithdrawal(tx, { userId, kind: 'withdraw', amount: toMicro(usdt), requestKey });
    const w = await tx.withdrawal.create({
      data: {
        userId,
        kind: 'withdraw',
        toAddress: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
        amount: toMicro(usdt),
        networkFee: toMicro('1'),
        status: 'pending',
        holdTransferId: hold.id,
        reviewReason: REVIEW_REASONS.overAllowance,
        createdAt: h.clock.now(),
      },
    });
    await queueRequestNotice(tx, w);
    await queuePendingAlert(tx, w, REVIEW_REASONS.overAllowance, h.clock.now());
    return w;
  });
};

describe("the owner's security notices", () => {
  it('are sent even with every notification switched off, with the freeze button first', async () => {
    const user = await h.user('ru');
    await h.prisma.userConfig.create({ data: { userId: user.id, name: 'notifications', value: 'off' } });
    const data = {
      withdrawalId: 1,
      amount: '1000000000',
      toAddress: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
      requestedAt: '2026-11-28T10:00:00.000Z',
    };
    await h.notify(user.id, 'withdrawal_requested', data);
    await h.drain(bot);
    const [message] = h.telegram.telegram.messagesTo(Number(user.telegramId));
    expect(message?.text).toBe(notificationText('ru', 'withdrawal_requested', data));
    expect(message?.text).toContain('1000 USDT');
    expect(message?.text).toContain('2026-11-28 10:00 UTC');
    expect(message?.reply_markup).toEqual({
      inline_keyboard: [
        [{ text: botTexts.ru.freezeButton, callback_data: `freeze:${user.uid}` }],
        [{ text: botTexts.ru.openApp, web_app: { url: MINI_APP_URL } }],
      ],
    });
  });

  it("freezes on the owner's press (answered, button gone, confirmed); anyone else's press freezes nothing", async () => {
    const user = await h.user('en');
    const chat = Number(user.telegramId);
    await h.notify(user.id, 'withdraw_address_changed', {
      address: 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL',
      target: 'address',
      changedAt: h.clock.now().toISOString(),
      usableFrom: new Date(h.clock.now().getTime() + 86_400_000).toISOString(),
    });
    await h.drain(bot);
    const [notice] = h.telegram.telegram.messagesTo(chat);
    expect(notice?.text).toContain('Your withdrawal address was changed');

    // A forwarded notice pressed by someone else.
    const refused = await press({ id: STRANGER }, chat, notice!.message_id, `freeze:${user.uid}`);
    expect(refused).toMatchObject({ text: botTexts.en.freezeNotYours, show_alert: true });
    expect(await h.prisma.walletFreeze.count({ where: { userId: user.id } })).toBe(0);

    const answer = await press({ id: chat }, chat, notice!.message_id, `freeze:${user.uid}`);
    expect(answer.text).toContain('Withdrawals are frozen');
    const freeze = await h.prisma.walletFreeze.findFirstOrThrow({ where: { userId: user.id } });
    expect(freeze).toMatchObject({ frozenBy: `user:telegram:${chat}`, liftedAt: null });
    const messages = await h.telegram.telegram.waitForMessages(chat, 2);
    const edited = messages.find((m) => m.message_id === notice!.message_id);
    expect(edited?.reply_markup).toBeUndefined();
    expect(messages[1]?.text).toBe(
      botTexts.en.frozen(
        0,
        new Date(freeze.frozenAt.getTime() + 86_400_000).toISOString(),
        h.ctx.env.SUPPORT_URL,
      ),
    );
  });
});

describe("the operators' chat", () => {
  it('posts a pending withdrawal with Approve / Reject; only a listed operator decides, through the same service', async () => {
    const user = await h.user('en');
    const w = await pendingWithdrawal(user.id, '250');
    expect(await bot.deliverOperatorAlertsOnce()).toMatchObject({ sent: 1 });
    const [posted] = h.telegram.telegram.messagesTo(OPERATORS_CHAT);
    expect(posted?.text).toContain(`Withdrawal #${w.id} waits for a decision`);
    expect(posted?.text).toContain(`UID ${user.uid} @${user.username}`);
    expect(posted?.text).toContain('250 USDT');
    expect(posted?.text).toContain('over the 24 h allowance');
    expect(posted?.reply_markup).toEqual({
      inline_keyboard: [
        [
          { text: '✅ Approve', callback_data: `wd:a:${w.id}` },
          { text: '❌ Reject', callback_data: `wd:r:${w.id}` },
        ],
      ],
    });
    const alert = await h.prisma.operatorAlert.findUniqueOrThrow({
      where: { dedupeKey: `withdrawal_pending:${w.id}` },
    });
    expect(alert).toMatchObject({ status: 'sent', messageId: BigInt(posted!.message_id) });

    const denied = await press({ id: STRANGER }, OPERATORS_CHAT, posted!.message_id, `wd:a:${w.id}`);
    expect(denied).toMatchObject({ text: 'Not allowed: you are not an operator.' });
    expect((await h.prisma.withdrawal.findUniqueOrThrow({ where: { id: w.id } })).status).toBe('pending');

    const approved = await press(
      { id: OPERATOR, username: 'ops_bob' },
      OPERATORS_CHAT,
      posted!.message_id,
      `wd:a:${w.id}`,
    );
    expect(approved.text).toBe('Approved.');
    const row = await h.prisma.withdrawal.findUniqueOrThrow({ where: { id: w.id } });
    expect(row).toMatchObject({ status: 'approved', decidedBy: `telegram:${OPERATOR} @ops_bob` });
    expect(row.releaseAt?.getTime()).toBe(row.approvedAt!.getTime() + 120_000);
    const edited = await h.telegram.telegram.waitFor(() => {
      const m = h.telegram.telegram
        .messagesTo(OPERATORS_CHAT)
        .find((x) => x.message_id === posted!.message_id);
      return m?.text.includes('Approved by') ? m : undefined;
    });
    expect(edited.text).toContain(`✅ Approved by telegram:${OPERATOR} @ops_bob at `);
    expect(edited.reply_markup).toBeUndefined();
  });

  it('rejects with a preset reason (refund and the user told), and says "already decided" after a CLI decision', async () => {
    const user = await h.user('en');
    const first = await pendingWithdrawal(user.id, '120');
    const second = await pendingWithdrawal(user.id, '130');
    await bot.deliverOperatorAlertsOnce();
    const posts = h.telegram.telegram.messagesTo(OPERATORS_CHAT);
    const postOf = (id: number) => posts.find((m) => m.text.includes(`Withdrawal #${id} `))!;

    await press({ id: OPERATOR }, OPERATORS_CHAT, postOf(first.id).message_id, `wd:r:${first.id}`);
    // The answer comes first, then the edit that shows the reasons.
    const reasons = await h.telegram.telegram.waitFor(() => {
      const m = h.telegram.telegram
        .messagesTo(OPERATORS_CHAT)
        .find((x) => x.message_id === postOf(first.id).message_id);
      return m?.edits?.length ? m : undefined;
    });
    expect(reasons?.reply_markup).toMatchObject({
      inline_keyboard: [
        [{ callback_data: `wd:x:${first.id}:0` }],
        [{ callback_data: `wd:x:${first.id}:1` }],
        [{ callback_data: `wd:x:${first.id}:2` }],
        [{ text: '« Back', callback_data: `wd:b:${first.id}` }],
      ],
    });
    const rejected = await press(
      { id: OPERATOR },
      OPERATORS_CHAT,
      postOf(first.id).message_id,
      `wd:x:${first.id}:0`,
    );
    expect(rejected.text).toBe('Rejected and refunded.');
    expect(await h.prisma.withdrawal.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      status: 'rejected',
      reason: 'suspicious activity on the account',
      decidedBy: `telegram:${OPERATOR}`,
    });
    expect(
      await h.prisma.notification.count({ where: { userId: user.id, kind: 'withdrawal_rejected' } }),
    ).toBe(1);

    // Decided with the CLI meanwhile: the chat's press is told so and changes nothing.
    await approveWithdrawal(h.ctx, { withdrawalId: second.id, operator: 'operator:alice' });
    const late = await press(
      { id: OPERATOR },
      OPERATORS_CHAT,
      postOf(second.id).message_id,
      `wd:a:${second.id}`,
    );
    expect(late.text).toBe('Already decided.');
    const shown = await h.telegram.telegram.waitFor(() => {
      const m = h.telegram.telegram
        .messagesTo(OPERATORS_CHAT)
        .find((x) => x.message_id === postOf(second.id).message_id);
      return m?.text.includes('Approved by operator:alice') ? m : undefined;
    });
    expect(shown.reply_markup).toBeUndefined();
    expect((await h.prisma.withdrawal.findUniqueOrThrow({ where: { id: second.id } })).decidedBy).toBe(
      'operator:alice',
    );
  });
});

describe('without an operators chat', () => {
  it('keeps the alerts as skipped', async () => {
    const other = await createBotHarness();
    try {
      const quiet = await other.bot({ poll: false });
      const user = await other.user('en');
      await other.prisma.operatorAlert.create({
        data: {
          kind: 'withdrawal_pending',
          data: {
            withdrawalId: 1,
            uid: user.uid,
            username: user.username,
            amount: '1',
            toAddress: 'T',
            reason: 'x',
          },
          dedupeKey: 'withdrawal_pending:1',
          createdAt: other.clock.now(),
          nextAttemptAt: other.clock.now(),
        },
      });
      expect(await quiet.deliverOperatorAlertsOnce()).toMatchObject({ skipped: 1 });
      expect((await other.prisma.operatorAlert.findFirstOrThrow()).status).toBe('skipped');
    } finally {
      await other.close();
    }
  });
});
