import type { Exchange } from '@gridbot/contracts';
import type { ExchangeClient, MarketInfo, Ticker } from '@gridbot/exchange';
import type { ServiceContext } from '../context/service-context';
import { pickFrom, userExchangeAccounts } from '../exchange-keys/pick-exchange-account';
import type { ExchangeClients } from '../grid/exchange-clients';

/**
 * The venue a user trades on: the keys' exchange and mode — those on `exchange` when given, else the
 * keys saved first — else the installation's mode of that exchange (no keys there yet).
 */
export type UserVenue = {
  venue: string;
  exchange: string;
  /** The user's exchange account, null without keys. */
  exchangeAccountId: number | null;
  /** The exchanges the user has keys on, in the order saved. */
  accounts: Exchange[];
};

export const userVenue = async (
  ctx: ServiceContext,
  input: { userId: number; exchange?: Exchange | undefined; ambiguous?: 'refuse' | 'first' },
): Promise<UserVenue> => {
  const all = await userExchangeAccounts(ctx.prisma, input.userId);
  const account = pickFrom(all, { ...input, ambiguous: input.ambiguous ?? 'first' });
  const accounts = all.map((a) => a.exchange as Exchange);
  if (account) {
    return {
      venue: `${account.exchange}:${account.mode}`,
      exchange: account.exchange,
      exchangeAccountId: account.id,
      accounts,
    };
  }
  const exchange = input.exchange ?? 'binance';
  return { venue: `${exchange}:${ctx.env.EXCHANGE_MODE}`, exchange, exchangeAccountId: null, accounts };
};

/** A venue's spot USDT markets and 24 h tickers, as the add-coin screen lists them. */
export type VenueMarketData = {
  markets: Map<string, MarketInfo>;
  tickers: Record<string, Ticker>;
  fetchedAt: number;
};

/** How long the add-coin screen reuses a venue's markets and tickers (one exchange call pair per 30 s). */
export const MARKET_DATA_TTL_MS = 30_000;

// Kept with the process's exchange clients: a process has one, a test app one per app.
const caches = new WeakMap<ExchangeClients, Map<string, Promise<VenueMarketData>>>();

const fetchMarketData = async (client: ExchangeClient, now: number): Promise<VenueMarketData> => {
  const all = await client.loadMarkets(true);
  const markets = new Map(
    all.filter((m) => m.quote === 'USDT' && m.active).map((m) => [m.symbol, m] as const),
  );
  // One call for every ticker of the venue (Binance: GET /api/v3/ticker/24hr without symbols).
  const tickers = await client.fetchTickers();
  return { markets, tickers, fetchedAt: now };
};

/**
 * The venue's USDT spot markets and tickers, cached in process for MARKET_DATA_TTL_MS. A failed
 * fetch is not cached (EXCHANGE_UNAVAILABLE reaches the caller; the next call tries again).
 */
export const venueMarketData = async (ctx: ServiceContext, venue: string): Promise<VenueMarketData> => {
  let cache = caches.get(ctx.exchanges);
  if (!cache) {
    cache = new Map();
    caches.set(ctx.exchanges, cache);
  }
  const now = ctx.clock.now().getTime();
  const cached = cache.get(venue);
  if (cached) {
    const data = await cached.catch(() => null);
    if (data && now - data.fetchedAt < MARKET_DATA_TTL_MS) return data;
  }
  const pending = fetchMarketData(ctx.exchanges.forVenue(venue), now);
  cache.set(venue, pending);
  pending.catch(() => {
    if (cache.get(venue) === pending) cache.delete(venue);
  });
  return pending;
};

type PriceCache = {
  tickers: Map<string, { at: number; ticker: Ticker }>;
  inflight: Map<string, Promise<Record<string, Ticker>>>;
};
const priceCaches = new WeakMap<ExchangeClients, PriceCache>();

/** The venue's tickers of `symbols`: from the process's cache while fresh, else one call shared by concurrent askers. */
const venueTickers = async (
  ctx: ServiceContext,
  venue: string,
  symbols: string[],
): Promise<Map<string, Ticker>> => {
  let cache = priceCaches.get(ctx.exchanges);
  if (!cache) {
    cache = { tickers: new Map(), inflight: new Map() };
    priceCaches.set(ctx.exchanges, cache);
  }
  const { tickers, inflight } = cache;
  const ttl = ctx.env.LAST_PRICE_CACHE_MS;
  const now = Date.now();
  const found = new Map<string, Ticker>();
  const missing: string[] = [];
  for (const symbol of new Set(symbols)) {
    const hit = tickers.get(`${venue}|${symbol}`);
    if (hit && now - hit.at < ttl) found.set(symbol, hit.ticker);
    else missing.push(symbol);
  }
  if (missing.length === 0) return found;
  const key = `${venue}|${missing.sort().join(',')}`;
  let call = inflight.get(key);
  if (!call) {
    call = ctx.exchanges.forVenue(venue).fetchTickers(missing);
    inflight.set(key, call);
    const settled = call;
    void settled
      .then((fetched) => {
        const at = Date.now();
        if (tickers.size > 20_000) tickers.clear();
        for (const [symbol, ticker] of Object.entries(fetched))
          tickers.set(`${venue}|${symbol}`, { at, ticker });
      })
      .catch(() => undefined)
      .finally(() => {
        if (inflight.get(key) === settled) inflight.delete(key);
      });
  }
  for (const [symbol, ticker] of Object.entries(await call)) found.set(symbol, ticker);
  return found;
};

/**
 * Last prices of these symbols per venue, one tickers call per venue, at most LAST_PRICE_CACHE_MS
 * old (docs/performance.md#fleet: a thousand portfolio requests a second must not each ask the
 * exchange); a venue that does not answer gives no prices (the caller shows null), so a portfolio
 * never fails because an exchange is down.
 */
export const lastPrices = async (
  ctx: ServiceContext,
  symbolsByVenue: Map<string, string[]>,
): Promise<Map<string, Map<string, Ticker>>> => {
  const entries = await Promise.all(
    [...symbolsByVenue].map(async ([venue, symbols]) => {
      try {
        return [venue, await venueTickers(ctx, venue, symbols)] as const;
      } catch (error) {
        ctx.log.warn({ venue, err: error }, 'tickers unavailable: portfolio shows no last price');
        return [venue, new Map<string, Ticker>()] as const;
      }
    }),
  );
  return new Map(entries);
};
