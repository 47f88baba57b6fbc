import type { Exchange, listAddableCoins } from '@gridbot/contracts';
import { usdtFigure } from '@gridbot/domain';
import { type MarketInfo, minimumOrderValue } from '@gridbot/exchange';
import Decimal from 'decimal.js';
import type { z } from 'zod';
import type { ServiceContext } from '../context/service-context';
import { getLicenseCheck } from '../license/user-license';
import { pctText } from './figures';
import { userVenue, venueMarketData } from './venue-market-data';
import { stepText } from './venue-precision';

export type AddableCoins = z.input<(typeof listAddableCoins)['response']>;

const ZERO = new Decimal(0);

/** The market's minimum order in USDT, rounded up to the cent shown (OKX's: minSz at the last price). */
const minOrderText = (market: MarketInfo, price: Decimal | null): string | null => {
  const min = minimumOrderValue(market, price);
  return min ? usdtFigure(min.toDecimalPlaces(2, Decimal.ROUND_UP)) : null;
};

/**
 * The add-coin screen (docs/grid.md#adding-a-coin): the USDT spot markets of the chosen exchange
 * account (the keys saved first by default; the installation's venue without keys), most traded first by 24 h quote volume, filtered by a symbol
 * prefix. Markets and tickers come from a 30 s in-process cache, so the screen costs at most one
 * markets and one tickers call per venue every 30 s.
 */
export const listAddablePortfolioCoins = async (
  ctx: ServiceContext,
  input: { userId: number; search?: string | undefined; exchange?: Exchange | undefined },
): Promise<AddableCoins> => {
  const venue = await userVenue(ctx, input);
  const [data, license, held] = await Promise.all([
    venueMarketData(ctx, venue.venue),
    getLicenseCheck(ctx, input),
    // In the portfolio on this exchange: the same coin may still be added on another one.
    venue.exchangeAccountId === null
      ? []
      : ctx.prisma.coinBot.findMany({
          where: { exchangeAccountId: venue.exchangeAccountId, deletedAt: null },
          select: { coin: true },
        }),
  ]);
  const inPortfolio = new Set(held.map((b) => b.coin));
  const search = input.search ?? '';
  const coins = [...data.markets.values()]
    .filter((m) => m.base.startsWith(search))
    .map((m) => ({ market: m, ticker: data.tickers[m.symbol] }))
    .sort(
      (a, b) =>
        (b.ticker?.quoteVolume ?? ZERO).comparedTo(a.ticker?.quoteVolume ?? ZERO) ||
        a.market.base.localeCompare(b.market.base),
    )
    .map(({ market, ticker }) => ({
      coin: market.base,
      symbol: market.symbol,
      lastPrice: ticker?.last.gt(0) ? ticker.last.toFixed() : null,
      priceTick: stepText(market.tickSize),
      change24hPct: ticker?.changePct ? pctText(ticker.changePct) : null,
      quoteVolume24h: ticker?.quoteVolume ? usdtFigure(ticker.quoteVolume) : null,
      minOrderUsdt: minOrderText(market, ticker?.last.gt(0) ? ticker.last : null),
      maxOpenOrders: market.maxNumOrders,
      inPortfolio: inPortfolio.has(market.base),
    }));
  return {
    exchange: venue.exchange as Exchange,
    accounts: venue.accounts,
    quote: 'USDT',
    keysConnected: venue.exchangeAccountId !== null,
    coinsUsed: license.usage.coins,
    coinsLimit: license.level.coins,
    coins,
  };
};
