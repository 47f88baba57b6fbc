import { type ExchangeClient, isExchangeError, type MarketInfo } from '@gridbot/exchange';
import { recordActivity } from '../activity/record-activity';
import type { ServiceContext } from '../context/service-context';
import { recordLastError } from './coin-bot-error';

/** Where a coin's market stands on the exchange (docs/grid.md#markets-change). */
export type MarketStanding =
  | { kind: 'trading'; market: MarketInfo }
  /** Listed but not taking orders (Binance: BREAK, HALT, …): the coin waits. */
  | { kind: 'closed'; status: string }
  /** Gone from the exchange's markets (delisted): a coin error. */
  | { kind: 'delisted' };

/** The coin's market as the client's (fresh enough) markets describe it. */
export const marketStandingOf = (client: ExchangeClient, symbol: string): MarketStanding => {
  let market: MarketInfo;
  try {
    market = client.market(symbol);
  } catch (error) {
    if (isExchangeError(error) && error.code === 'COIN_NOT_LISTED') return { kind: 'delisted' };
    throw error;
  }
  return market.active ? { kind: 'trading', market } : { kind: 'closed', status: market.status ?? 'CLOSED' };
};

type Bot = {
  id: number;
  userId: number;
  symbol: string;
  marketStatus: string | null;
  lastError: string | null;
};

/**
 * Stores the market's status on the coin bot (null: trading) for the coin screen, with one
 * activity entry when trading stops and one when it resumes, whatever the number of passes in
 * between: the flip is conditional, so two workers seeing the same change write one entry.
 */
export const recordMarketStatus = async (ctx: ServiceContext, bot: Bot, status: string | null) => {
  if (bot.marketStatus === status) return;
  await ctx.prisma.$transaction(async (tx) => {
    const flipped = await tx.coinBot.updateMany({
      where: { id: bot.id, marketStatus: bot.marketStatus },
      data: { marketStatus: status, marketStatusAt: status ? ctx.clock.now() : null },
    });
    // BREAK → HALT is still "not trading": the coin screen shows the new status, the log has its entry.
    if (flipped.count === 0 || (bot.marketStatus !== null && status !== null)) return;
    await recordActivity(tx, {
      coinBotId: bot.id,
      userId: bot.userId,
      kind: status ? 'market_closed' : 'market_reopened',
      actor: 'exchange',
      data: { symbol: bot.symbol, status: status ?? 'TRADING' },
    });
  });
};

/**
 * The coin's market was delisted: the coin bot's error becomes COIN_NOT_LISTED and the user gets
 * a coin_bot_error notice (docs/notifications.md#kinds) even when another error stood before,
 * since nothing the user does on the exchange brings this market back.
 */
export const recordDelisted = async (ctx: ServiceContext, bot: Bot) => {
  if (bot.lastError === 'COIN_NOT_LISTED') return;
  await recordLastError(ctx, { bot, previous: bot.lastError, lastError: 'COIN_NOT_LISTED', notify: true });
};
