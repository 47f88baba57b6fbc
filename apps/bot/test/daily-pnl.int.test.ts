import { notificationText, previousUtcDay } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningBot } from '../src/start-bot';
import { type BotHarness, createBotHarness } from './support/bot-harness';

let h: BotHarness;
let sender: RunningBot;
beforeAll(async () => {
  h = await createBotHarness();
  sender = await h.bot({ poll: false });
});
afterAll(async () => {
  await h?.close();
});

/** Realized PnL of one coin bot on one UTC day, as the engine books it. */
const booked = async (userId: number, coin: string, date: string, pnl: string, closedTrades: number) => {
  const account = await h.prisma.exchangeAccount.upsert({
    where: { userId_exchange: { userId, exchange: 'binance' } },
    update: {},
    create: {
      userId,
      exchange: 'binance',
      mode: 'sandbox',
      apiKey: `k${userId}`,
      secretCipher: Buffer.from('x'),
      secretIv: Buffer.from('y'),
      keyId: 'k1',
    },
  });
  const bot = await h.prisma.coinBot.create({
    data: {
      userId,
      exchangeAccountId: account.id,
      coin,
      symbol: `${coin}/USDT`,
      orderSize: '10',
      stepPct: '1',
      stepIncreasePct: '0',
      maxTrades: 3,
    },
  });
  await h.prisma.dailyPnl.create({
    data: {
      coinBotId: bot.id,
      userId,
      date: new Date(date),
      realizedPnl: pnl,
      closedTrades,
      profitableTrades: 1,
    },
  });
};

describe('the daily PnL summary (opt-in)', () => {
  it("is queued once per opted-in user for yesterday's trades, however often the job runs, and sent once", async () => {
    const yesterday = previousUtcDay(h.clock.now());
    const optedIn = await h.user('ru');
    await h.prisma.notificationSettings.create({ data: { userId: optedIn.id, dailyReport: true } });
    await booked(optedIn.id, 'ETH', yesterday, '2.005', 3);
    await booked(optedIn.id, 'XRP', yesterday, '-0.5', 1);
    const notOptedIn = await h.user('en');
    await booked(notOptedIn.id, 'ETH', yesterday, '1', 1);
    const masterOff = await h.user('en');
    await h.prisma.notificationSettings.create({ data: { userId: masterOff.id, dailyReport: true } });
    await h.prisma.userConfig.create({ data: { userId: masterOff.id, name: 'notifications', value: 'off' } });
    await booked(masterOff.id, 'ETH', yesterday, '1', 1);

    const runs = await Promise.all([sender.queueDailySummaries(), sender.queueDailySummaries()]);
    await sender.queueDailySummaries();
    expect(runs.reduce((sum, r) => sum + r.queued, 0)).toBe(1);
    const rows = await h.prisma.notification.findMany({ where: { kind: 'daily_pnl' } });
    expect(rows.map((r) => r.userId)).toEqual([optedIn.id]);

    await h.drain(sender);
    await h.drain(sender);
    const data = {
      date: yesterday,
      pnl: '1.51',
      closedTrades: 4,
      coins: [
        { coin: 'ETH', pnl: '2.01' },
        { coin: 'XRP', pnl: '-0.50' },
      ],
    };
    expect(rows[0]?.data).toEqual(data);
    expect(h.telegram.telegram.messagesTo(Number(optedIn.telegramId)).map((m) => m.text)).toEqual([
      notificationText('ru', 'daily_pnl', data),
    ]);
    expect(h.telegram.telegram.messagesTo(Number(notOptedIn.telegramId))).toEqual([]);
  });
});
