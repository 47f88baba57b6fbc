import type { ServiceContext } from '../context/service-context';

/**
 * Stores a coin bot's last refusal (`lastError`, a catalogue code; null once it converges
 * cleanly). When a healthy bot becomes refused — the exchange turned its orders down for good, so
 * it stands still — the user is told once: a `coin_bot_error` notification in the same
 * transaction as the conditional flip, so two workers seeing the same refusal write one row
 * (docs/notifications.md#kinds).
 */
export const recordLastError = async (
  ctx: ServiceContext,
  input: {
    bot: { id: number; userId: number; symbol: string };
    previous: string | null;
    lastError: string | null;
    /** Tell the user even when the bot already had another error (a delisting). */
    notify?: boolean;
  },
): Promise<void> => {
  const { bot, previous, lastError } = input;
  await ctx.prisma.$transaction(async (tx) => {
    const flipped = await tx.coinBot.updateMany({
      where: { id: bot.id, lastError: previous },
      data: { lastError },
    });
    if (flipped.count === 0 || lastError === null || (previous !== null && !input.notify)) return;
    const at = ctx.clock.now();
    await tx.notification.createMany({
      data: [
        {
          userId: bot.userId,
          kind: 'coin_bot_error',
          data: {
            coinBotId: bot.id,
            coin: bot.symbol.split('/')[0] ?? bot.symbol,
            symbol: bot.symbol,
            code: lastError,
          },
          dedupeKey: `coin_bot_error:${bot.id}:${at.getTime()}`,
        },
      ],
      skipDuplicates: true,
    });
  });
};
