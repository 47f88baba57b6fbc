import type { CoinBot, ExchangeAccount, Lot as LotRow } from '@gridbot/db';
import type { ExchangeClient, MarketInfo } from '@gridbot/exchange';
import Decimal from 'decimal.js';
import type { ServiceContext } from '../context/service-context';
import { AppError } from '../errors';
import { marketStandingOf } from '../grid/market-status';

/** Keys the exchange refuses to trade with (the account's last check, or the engine's last refusal). */
const REFUSED_KEYS = new Set([
  'API_KEY_INVALID',
  'API_KEY_NO_SPOT',
  'API_KEY_ACCOUNT_TYPE',
  'API_KEY_IP_NOT_ALLOWED',
  'API_KEY_TRADING_EXPIRED',
] as const);
type RefusedKey = typeof REFUSED_KEYS extends Set<infer T> ? T : never;
const isRefusedKey = (code: string | null): code is RefusedKey =>
  code !== null && REFUSED_KEYS.has(code as RefusedKey);

export type DealCoin = CoinBot & { exchangeAccount: ExchangeAccount };

/** One of the user's coin bots in the portfolio (404 COIN_NOT_FOUND otherwise, another user's too). */
export const findDealCoin = async (
  ctx: ServiceContext,
  input: { userId: number; coinBotId: number },
): Promise<DealCoin> => {
  const bot = await ctx.prisma.coinBot.findFirst({
    where: { id: input.coinBotId, userId: input.userId, deletedAt: null },
    include: { exchangeAccount: true },
  });
  if (!bot) throw new AppError('COIN_NOT_FOUND');
  return bot;
};

/** Keys the exchange would refuse: nothing can be sold or cancelled with them. */
export const assertTradingKeys = (bot: DealCoin): void => {
  const refused = [bot.exchangeAccount.checkProblem, bot.lastError].find(isRefusedKey);
  if (refused) throw new AppError(refused);
};

export type DealMarket = {
  client: ExchangeClient;
  market: MarketInfo;
  /** Best bid, else the last price: what a market sell meets first. */
  price: Decimal;
  priceSource: 'bid' | 'last';
};

/**
 * The coin's market as the exchange lists it now (docs/grid.md#markets-change): trading, else
 * MARKET_CLOSED or COIN_NOT_LISTED; and the price a market sell would meet first.
 */
export const dealMarket = async (ctx: ServiceContext, bot: DealCoin): Promise<DealMarket> => {
  const client = await ctx.exchanges.forAccount(bot.exchangeAccountId);
  await client.loadMarkets();
  const standing = marketStandingOf(client, bot.symbol);
  if (standing.kind === 'delisted') throw new AppError('COIN_NOT_LISTED');
  if (standing.kind === 'closed') throw new AppError('MARKET_CLOSED');
  const ticker = await client.fetchTicker(bot.symbol);
  const bid = ticker.bid?.gt(0) ? ticker.bid : null;
  return { client, market: standing.market, price: bid ?? ticker.last, priceSource: bid ? 'bid' : 'last' };
};

/** The lot's quantity as a market sell sends it (truncated to the lot step), 0 below one step. */
export const sendableQty = (client: ExchangeClient, symbol: string, lot: Pick<LotRow, 'qty'>): Decimal => {
  try {
    return new Decimal(client.amountToPrecision(symbol, lot.qty.toString()));
  } catch {
    return new Decimal(0);
  }
};

/** Would the exchange take a market sell of this quantity at this price (LOT_SIZE, NOTIONAL)? */
export const sellable = (deal: DealMarket, symbol: string, qty: Decimal): boolean =>
  qty.gt(0) && deal.client.minimumViolation(symbol, deal.price, qty) === null;
