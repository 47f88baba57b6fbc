import type { OrderRounding } from '@gridbot/domain';
import { type ExchangeClient, isExchangeError, type MarketInfo } from '@gridbot/exchange';
import Decimal from 'decimal.js';
import type { ServiceContext } from '../context/service-context';

/**
 * A coin's market as its screens show it (docs/conventions.md#money-and-numbers): the tick and lot
 * step, and the engine's own rounding of an order's price and quantity to them — the ccxt calls
 * reconcile sends every order through (grid/reconcile-coin-bot.ts toIntent), on the venue's shared
 * markets, so a planned order is shown as the exchange will carry it.
 */
export type CoinMarket = { priceTick: Decimal; qtyStep: Decimal; rounding: OrderRounding };

const ZERO = new Decimal(0);

/** A tick or lot step on the wire: null when the exchange gives none (0). */
export const stepText = (step: Decimal): string | null => (step.gt(0) ? step.toFixed() : null);

/** The figure as it would be sent, or `fallback` where the engine would not send it (below one tick or lot step). */
const sent = (round: () => string, fallback: Decimal): Decimal => {
  try {
    return new Decimal(round());
  } catch {
    return fallback;
  }
};

const coinMarketOf = (client: ExchangeClient, market: MarketInfo): CoinMarket | null => {
  if (market.tickSize.lte(0) || market.stepSize.lte(0)) return null;
  const { symbol } = market;
  return {
    priceTick: market.tickSize,
    qtyStep: market.stepSize,
    rounding: {
      price: (price) => sent(() => client.priceToPrecision(symbol, price), price),
      buyQty: (quote, price) => sent(() => client.amountForQuote(symbol, quote, price), ZERO),
      sellQty: (qty) => sent(() => client.amountToPrecision(symbol, qty), ZERO),
    },
  };
};

/**
 * The markets of these symbols per venue, from the venue's markets shared by the process (fetched
 * once per SHARED_MARKETS_TTL_MS). A venue that does not answer, or a symbol it does not list,
 * gives none: the screens then show the figures as they are, so no coin screen fails because an
 * exchange is down.
 */
export const coinMarkets = async (
  ctx: ServiceContext,
  symbolsByVenue: Map<string, string[]>,
): Promise<Map<string, Map<string, CoinMarket>>> => {
  const entries = await Promise.all(
    [...symbolsByVenue].map(async ([venue, symbols]) => {
      const client = ctx.exchanges.forVenue(venue);
      const found = new Map<string, CoinMarket>();
      for (const symbol of new Set(symbols)) {
        try {
          const market = coinMarketOf(client, await client.loadMarket(symbol));
          if (market) found.set(symbol, market);
        } catch (error) {
          if (isExchangeError(error) && error.code === 'COIN_NOT_LISTED') continue;
          ctx.log.warn({ venue, err: error }, 'markets unavailable: figures shown off the tick');
          break;
        }
      }
      return [venue, found] as const;
    }),
  );
  return new Map(entries);
};

/** One coin's market (null when the venue does not answer or does not list it). */
export const coinMarket = async (
  ctx: ServiceContext,
  venue: string,
  symbol: string,
): Promise<CoinMarket | null> =>
  (await coinMarkets(ctx, new Map([[venue, [symbol]]]))).get(venue)?.get(symbol) ?? null;
