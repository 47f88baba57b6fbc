import type { Exchange } from 'ccxt';

/**
 * How long one venue's markets (and the clock offset measured with them) serve a process before
 * they are fetched again. Binance changes a symbol's filters and status while it runs (a new tick
 * or lot step, BREAK, HALT, a delisting: Binance spot API docs, rest-api.md#exchange-information),
 * and a refusal that says so refreshes them at once (create-exchange-client.ts).
 */
export const SHARED_MARKETS_TTL_MS = 5 * 60_000;

type SharedMarkets = { at: number; markets: Promise<unknown>; timeDifference?: unknown; settled: boolean };
const sharedMarkets = new Map<string, SharedMarkets>();

export type MarketsHandle = {
  /**
   * The instance's markets are missing, older than its TTL, or another instance of the same venue
   * has fetched newer ones since (so a refresh one key's refusal caused reaches every key).
   */
  stale(): boolean;
  /**
   * Loads the venue's markets into this instance: the share when it is fresh (or, with `force`,
   * one fetch started after the caller learned they changed), else a new fetch.
   */
  refresh(force?: boolean): Promise<void>;
};

const handles = new WeakMap<Exchange, MarketsHandle>();

/** The markets handle of an instance made by createCcxtExchange. */
export const marketsOf = (exchange: Exchange): MarketsHandle => {
  const handle = handles.get(exchange);
  if (!handle) throw new Error('not an instance of createCcxtExchange');
  return handle;
};

/**
 * The markets of a venue are the same for every API key: the first instance of a process that needs
 * them fetches them (Binance's exchangeInfo: request weight 20 and megabytes of JSON), the others of
 * the same venue take that parsed list while it is younger than `ttlMs`, and concurrent loads share
 * one request. A forced refresh fetches again unless a fetch is already under way. Each instance
 * still indexes the list itself (ccxt's setMarkets), so nothing it keeps is shared mutable state.
 */
export const shareMarkets = (exchange: Exchange, venue: string, ttlMs = SHARED_MARKETS_TTL_MS): void => {
  let forced = false;
  // The share this instance's markets came from.
  let adopted: SharedMarkets | undefined;
  const loadOwn = exchange.loadMarkets.bind(exchange);
  const fetchOwn = exchange.fetchMarkets.bind(exchange);
  exchange.loadMarkets = ((reload = false, params = {}) => {
    if (reload) forced = true;
    return loadOwn(reload, params);
  }) as Exchange['loadMarkets'];
  exchange.fetchMarkets = (async (params = {}) => {
    const entry = sharedMarkets.get(venue);
    const usable = entry && (forced ? !entry.settled : Date.now() - entry.at < ttlMs);
    forced = false;
    if (entry && usable) {
      const markets = await entry.markets;
      if (entry.timeDifference !== undefined) exchange.options.timeDifference = entry.timeDifference;
      adopted = entry;
      return markets;
    }
    const fresh: SharedMarkets = { at: Date.now(), markets: fetchOwn(params), settled: false };
    sharedMarkets.set(venue, fresh);
    try {
      const markets = await fresh.markets;
      // Binance's fetchMarkets measures the clock offset (adjustForTimeDifference) on the way.
      fresh.timeDifference = exchange.options.timeDifference;
      adopted = fresh;
      return markets;
    } catch (error) {
      if (sharedMarkets.get(venue) === fresh) sharedMarkets.delete(venue);
      throw error;
    } finally {
      fresh.settled = true;
    }
  }) as Exchange['fetchMarkets'];
  handles.set(exchange, {
    stale: () =>
      !exchange.markets ||
      !adopted ||
      sharedMarkets.get(venue) !== adopted ||
      Date.now() - adopted.at >= ttlMs,
    refresh: async (force = false) => {
      await (force ? exchange.loadMarkets(true) : loadOwn(true));
    },
  });
};
