import type { Language } from '@gridbot/contracts';
import { notificationText } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningBot } from '../src/start-bot';
import { type BotHarness, createBotHarness, MINI_APP_URL } from './support/bot-harness';

let h: BotHarness;
let sender: RunningBot;
beforeAll(async () => {
  h = await createBotHarness();
  sender = await h.bot({ poll: false });
});
afterAll(async () => {
  await h?.close();
});

/** One row of every kind, with data as its producer writes it. */
const everyKind = {
  deposit_credited: { depositId: 1, txid: 'ab12', amount: '12500000' },
  withdrawal_sent: { withdrawalId: 1, txid: 'cd34', amount: '50000000', receives: '49000000' },
  withdrawal_failed: { withdrawalId: 2, txid: 'ef56', amount: '20000000', receives: '19000000' },
  withdrawal_rejected: { withdrawalId: 3, amount: '300', reason: 'address on a sanctions list' },
  fee_balance_empty: { reason: 'fee_balance_empty', feeBalanceMicro: '-1250000', transferId: '9' },
  coin_bot_error: { coinBotId: 4, coin: 'XRP', symbol: 'XRP/USDT', code: 'EXCHANGE_INSUFFICIENT_BALANCE' },
  license_expiring_7: { level: 'PRO1', daysLeft: 7 },
  license_expiring_1: { level: 'PRO1', daysLeft: 1 },
  license_expired: { level: 'PRO1' },
  bonus_credited: { bonus: 'matching_bonus', amount: '1030000' },
  daily_pnl: { date: '2026-11-22', pnl: '3.41', closedTrades: 5, coins: [{ coin: 'ETH', pnl: '3.41' }] },
} as const;
const kindOf = (name: string) => name.replace(/_\d$/, '');

describe('notifications through the Bot API stand-in', () => {
  it.each(['en', 'ru', 'cn'] as const)(
    'sends every kind once, rendered in the user language (%s)',
    async (language: Language) => {
      const user = await h.user(language);
      await h.prisma.notificationSettings.create({ data: { userId: user.id, dailyReport: true } });
      for (const [name, data] of Object.entries(everyKind)) await h.notify(user.id, kindOf(name), data);
      await h.drain(sender);
      await h.drain(sender);
      const sent = h.telegram.telegram.messagesTo(Number(user.telegramId));
      const expected = Object.entries(everyKind).map(([name, data]) =>
        notificationText(language, kindOf(name) as never, data as never),
      );
      expect(sent.map((m) => m.text)).toEqual(expected);
      expect(new Set(expected).size).toBe(expected.length);
      expect(sent[0]?.reply_markup).toMatchObject({
        inline_keyboard: [[{ web_app: { url: MINI_APP_URL } }]],
      });
      const rows = await h.prisma.notification.findMany({ where: { userId: user.id } });
      expect(rows.every((r) => r.status === 'sent' && r.sentAt !== null)).toBe(true);
    },
  );

  it('renders amounts exactly from micro-USDT and the words of each language', () => {
    expect(notificationText('en', 'deposit_credited', everyKind.deposit_credited)).toContain('12.5 USDT');
    expect(notificationText('ru', 'withdrawal_sent', everyKind.withdrawal_sent)).toContain('49 USDT');
    expect(notificationText('cn', 'fee_balance_empty', everyKind.fee_balance_empty)).toContain('-1.25 USDT');
    expect(notificationText('en', 'license_expiring', everyKind.license_expiring_1)).toContain('tomorrow');
    expect(notificationText('ru', 'license_expiring', everyKind.license_expiring_7)).toContain('через 7');
    const day = { ...everyKind.daily_pnl, coins: [...everyKind.daily_pnl.coins] };
    expect(notificationText('cn', 'daily_pnl', day)).toContain('+3.41 USDT');
  });

  it('two bot processes delivering at once send every row exactly once', async () => {
    const second = await h.bot({ poll: false });
    const users = await Promise.all([h.user('en'), h.user('ru'), h.user('cn'), h.user('en')]);
    for (const [i, user] of users.entries())
      for (let n = 0; n < 15; n += 1)
        await h.notify(user.id, 'deposit_credited', {
          txid: `t${i}-${n}`,
          amount: String((n + 1) * 1_000_000),
        });
    const sendsBefore = h.telegram.telegram.callsOf('sendMessage');
    await Promise.all([h.drain(sender), h.drain(second), h.drain(sender), h.drain(second)]);
    for (const user of users) {
      const texts = h.telegram.telegram.messagesTo(Number(user.telegramId)).map((m) => m.text);
      expect(texts).toHaveLength(15);
      expect(new Set(texts).size).toBe(15);
    }
    expect(h.telegram.telegram.callsOf('sendMessage') - sendsBefore).toBe(60);
  });

  it('a user who blocked the bot is marked and never retried, until they write to the bot again', async () => {
    const user = await h.user('en');
    const chat = Number(user.telegramId);
    h.telegram.telegram.setBlocked(chat, true);
    const first = await h.notify(user.id, 'deposit_credited', { txid: 'b1', amount: '1000000' });
    expect(await sender.deliverOnce()).toMatchObject({ blocked: 1 });
    expect((await h.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).botBlockedAt).not.toBeNull();
    expect(await h.prisma.notification.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({
      status: 'blocked',
      sentAt: null,
    });

    const sendsBefore = h.telegram.telegram.callsOf('sendMessage');
    await h.notify(user.id, 'deposit_credited', { txid: 'b2', amount: '2000000' });
    h.clock.advance(3_600_000);
    await h.drain(sender);
    expect(h.telegram.telegram.callsOf('sendMessage')).toBe(sendsBefore);

    // They unblock and press Start: notifications flow again.
    const poller = await h.bot();
    h.telegram.telegram.userSends({ from: { id: chat, username: user.username }, text: '/start' });
    await h.telegram.telegram.waitForMessages(chat, 1);
    await poller.stop();
    await h.notify(user.id, 'deposit_credited', { txid: 'b3', amount: '3000000' });
    await h.drain(sender);
    expect(h.telegram.telegram.messagesTo(chat).map((m) => m.text)).toContain(
      notificationText('en', 'deposit_credited', { txid: 'b3', amount: '3000000' }),
    );
  });

  it('the user settings switch kinds off (muted, never sent); the master switch all of them', async () => {
    const user = await h.user('ru');
    await h.prisma.notificationSettings.create({ data: { userId: user.id, wallet: false } });
    await h.notify(user.id, 'deposit_credited', { txid: 'm1', amount: '1000000' });
    await h.notify(user.id, 'fee_balance_empty', { feeBalanceMicro: '0' });
    await h.notify(user.id, 'daily_pnl', everyKind.daily_pnl);
    await h.drain(sender);
    const chat = Number(user.telegramId);
    expect(h.telegram.telegram.messagesTo(chat).map((m) => m.text)).toEqual([
      notificationText('ru', 'fee_balance_empty', { feeBalanceMicro: '0' }),
    ]);
    const statuses = await h.prisma.notification.findMany({
      where: { userId: user.id },
      orderBy: { id: 'asc' },
    });
    expect(statuses.map((n) => n.status)).toEqual(['muted', 'sent', 'muted']);

    await h.prisma.userConfig.create({ data: { userId: user.id, name: 'notifications', value: 'off' } });
    await h.notify(user.id, 'fee_balance_empty', { feeBalanceMicro: '-5' });
    await h.drain(sender);
    expect(h.telegram.telegram.messagesTo(chat)).toHaveLength(1);
  });

  it("honours Telegram's 429 retry_after: nothing is sent before it, then the message goes once", async () => {
    const user = await h.user('en');
    const chat = Number(user.telegramId);
    h.telegram.telegram.throttle(chat, 30);
    const row = await h.notify(user.id, 'deposit_credited', { txid: 'r1', amount: '1000000' });
    expect(await sender.deliverOnce()).toMatchObject({ retried: 1, pauseMs: 30_000 });
    const waiting = await h.prisma.notification.findUniqueOrThrow({ where: { id: row.id } });
    expect(waiting.nextAttemptAt.getTime() - h.clock.now().getTime()).toBe(30_000);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 0 });
    h.clock.advance(29_000);
    expect((await sender.deliverOnce()).claimed).toBe(0);
    h.clock.advance(1_000);
    expect(await sender.deliverOnce()).toMatchObject({ sent: 1 });
    expect(h.telegram.telegram.messagesTo(chat)).toHaveLength(1);
  });

  it('other errors are retried with a growing backoff; a message Telegram refuses for good is failed', async () => {
    const user = await h.user('en');
    const chat = Number(user.telegramId);
    h.telegram.telegram.failNext(chat, 502, 'Bad Gateway', 2);
    const row = await h.notify(user.id, 'deposit_credited', { txid: 'e1', amount: '1000000' });
    await sender.deliverOnce();
    const once = await h.prisma.notification.findUniqueOrThrow({ where: { id: row.id } });
    expect(once.nextAttemptAt.getTime() - h.clock.now().getTime()).toBe(5_000);
    h.clock.advance(5_000);
    await sender.deliverOnce();
    const twice = await h.prisma.notification.findUniqueOrThrow({ where: { id: row.id } });
    expect(twice.nextAttemptAt.getTime() - h.clock.now().getTime()).toBe(10_000);
    h.clock.advance(10_000);
    expect(await sender.deliverOnce()).toMatchObject({ sent: 1 });

    h.telegram.telegram.failNext(chat, 400, 'Bad Request: chat not found');
    const refused = await h.notify(user.id, 'deposit_credited', { txid: 'e2', amount: '1000000' });
    await h.drain(sender);
    expect(await h.prisma.notification.findUniqueOrThrow({ where: { id: refused.id } })).toMatchObject({
      status: 'failed',
      lastError: '400 Bad Request: chat not found',
    });
  });
});

describe('the delivery loop', () => {
  it('sleeps between passes without piling up abort listeners (a loop that runs for days)', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const looping = await h.bot({ poll: false, notifyIntervalMs: 5 });
      // Far more passes than the 10 listeners an AbortSignal may hold before Node warns.
      await new Promise((resolve) => setTimeout(resolve, 400));
      await looping.stop();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });
});
