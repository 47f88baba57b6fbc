import { errorCatalogue } from '@gridbot/contracts';
import { botTexts } from '@gridbot/services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotHarness, createBotHarness, MINI_APP_URL } from './support/bot-harness';

let h: BotHarness;
beforeAll(async () => {
  h = await createBotHarness();
  await h.bot();
});
afterAll(async () => {
  await h?.close();
});

const openAppButton = (text: string) => ({
  inline_keyboard: [[{ text, web_app: { url: MINI_APP_URL } }]],
});

/** A user writes to the bot; resolves with the bot's answers once it has answered. */
const say = async (
  from: Parameters<BotHarness['telegram']['telegram']['userSends']>[0]['from'],
  text: string,
) => {
  const before = h.telegram.telegram.messagesTo(from.id).length;
  h.telegram.telegram.userSends({ from, text });
  const all = await h.telegram.telegram.waitForMessages(from.id, before + 1);
  return all.slice(before);
};

describe('/start through the Bot API stand-in', () => {
  it('registers a new user with the referral code: sponsor fixed, a web_app button to the mini app', async () => {
    const [answer] = await say(
      { id: 8_100_001, username: 'Alice_T', first_name: 'Alice', language_code: 'ru' },
      '/start ref_rootcode1',
    );
    const alice = await h.prisma.user.findUniqueOrThrow({ where: { telegramId: 8_100_001n } });
    expect(alice).toMatchObject({ username: 'Alice_T', sponsorId: h.root.id, firstName: 'Alice' });
    expect(answer).toMatchObject({
      text: botTexts.ru.welcome,
      reply_markup: openAppButton(botTexts.ru.openApp),
    });
    // The menu button opens the mini app: the default one (set at start) and this chat's, in Russian.
    expect(h.telegram.telegram.menuButton()).toMatchObject({
      type: 'web_app',
      web_app: { url: MINI_APP_URL },
    });
    expect(h.telegram.telegram.menuButton(8_100_001)).toEqual({
      type: 'web_app',
      text: botTexts.ru.menuButton,
      web_app: { url: MINI_APP_URL },
    });
  });

  it('a second /start with another code keeps the first sponsor (nobody is re-sponsored)', async () => {
    const [answer] = await say(
      { id: 8_100_002, username: 'bob_t', first_name: 'Bob' },
      '/start ref_rootcode1',
    );
    const bob = await h.prisma.user.findUniqueOrThrow({ where: { telegramId: 8_100_002n } });
    expect(answer?.text).toBe(botTexts.en.welcome);
    const [again] = await say(
      { id: 8_100_003, username: 'carol_t', first_name: 'Carol' },
      `/start ref_${bob.referralCode}`,
    );
    expect(again?.text).toBe(botTexts.en.welcome);
    const [back] = await say({ id: 8_100_002, username: 'bob_t', first_name: 'Bob' }, '/start ref_rootcode1');
    expect(back).toMatchObject({
      text: botTexts.en.welcomeBack,
      reply_markup: openAppButton(botTexts.en.openApp),
    });
    // Carol, already registered under Bob, starts again with the root's code: still Bob's partner.
    await say({ id: 8_100_003, username: 'carol_t', first_name: 'Carol' }, '/start ref_rootcode1');
    const carol = await h.prisma.user.findUniqueOrThrow({ where: { telegramId: 8_100_003n } });
    expect(carol.sponsorId).toBe(bob.id);
    expect(await h.prisma.user.count({ where: { telegramId: { in: [8_100_002n, 8_100_003n] } } })).toBe(2);
  });

  it('without a Telegram username: asks for one politely in the user language and registers nobody', async () => {
    const [answer] = await say(
      { id: 8_100_004, first_name: 'Dan', language_code: 'zh-hans' },
      '/start ref_rootcode1',
    );
    expect(answer?.text).toBe(errorCatalogue.NO_NICKNAME.detail.cn);
    expect(answer?.reply_markup).toBeUndefined();
    expect(await h.prisma.user.findUnique({ where: { telegramId: 8_100_004n } })).toBeNull();
  });

  it('without a code (or with an unknown one) an unknown user is told the bot is invite-only', async () => {
    const [plain] = await say(
      { id: 8_100_005, username: 'eve_t', first_name: 'Eve', language_code: 'ru' },
      '/start',
    );
    expect(plain?.text).toBe(botTexts.ru.inviteOnly);
    const [unknown] = await say(
      { id: 8_100_005, username: 'eve_t', first_name: 'Eve' },
      '/start ref_nosuchcode',
    );
    expect(unknown?.text).toBe(errorCatalogue.REFERRAL_CODE_UNKNOWN.detail.en);
    expect(await h.prisma.user.findUnique({ where: { telegramId: 8_100_005n } })).toBeNull();
  });

  it('a registered user without a code is welcomed back with the button', async () => {
    const [answer] = await say(
      { id: 8_100_001, username: 'Alice_T', first_name: 'Alice', language_code: 'ru' },
      '/start',
    );
    expect(answer).toMatchObject({
      text: botTexts.ru.welcomeBack,
      reply_markup: openAppButton(botTexts.ru.openApp),
    });
  });

  it('a blocked account is told so, in its language, without the button (docs/operations.md#users)', async () => {
    await h.prisma.user.update({
      where: { telegramId: 8_100_001n },
      data: { blockedAt: new Date(), blockedReason: 'test' },
    });
    const [answer] = await say(
      { id: 8_100_001, username: 'Alice_T', first_name: 'Alice', language_code: 'ru' },
      '/start',
    );
    expect(answer?.text).toBe(errorCatalogue.ACCOUNT_BLOCKED.detail.ru);
    expect(answer?.reply_markup).toBeUndefined();
    await h.prisma.user.update({
      where: { telegramId: 8_100_001n },
      data: { blockedAt: null, blockedReason: null },
    });
  });
});
