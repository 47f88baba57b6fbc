import type { Exchange } from 'ccxt';
import { ExchangeError } from './errors';

const trimmed = (base: string) => base.replace(/\/+$/, '');
const wsOf = (base: string) => trimmed(base).replace(/^http/, 'ws');

/**
 * Every API family ccxt calls for a venue, pointed at that venue's dialect of our sandbox
 * (apps/sandbox: Binance on the main port, Bybit v5 and OKX v5 each on its own). Only the base
 * URLs change: ccxt builds and signs every request exactly as it would for the venue.
 */
const REST: Record<string, (root: string) => Record<string, string>> = {
  // The Binance dialect serves every spot family under its base URL.
  binance: (root) => ({
    public: `${root}/api/v3`,
    private: `${root}/api/v3`,
    v1: `${root}/api/v1`,
    sapi: `${root}/sapi/v1`,
    sapiV2: `${root}/sapi/v2`,
    sapiV3: `${root}/sapi/v3`,
    sapiV4: `${root}/sapi/v4`,
  }),
  // ccxt's bybit prefixes /v5/… paths to these hosts.
  bybit: (root) => ({ spot: root, futures: root, v2: root, public: root, private: root }),
  // ccxt's okx prefixes /api/v5/… to `rest`.
  okx: (root) => ({ rest: root }),
};

/** The WebSocket endpoints ccxt pro opens, on the dialect's host and port. */
const WS: Record<string, (root: string) => unknown> = {
  binance: (root) => ({ spot: `${root}/ws`, 'ws-api': { spot: `${root}/ws-api/v3` } }),
  bybit: (root) => ({
    public: { spot: `${root}/v5/public/spot` },
    private: {
      spot: { unified: `${root}/v5/private`, nonUnified: `${root}/v5/private` },
      contract: `${root}/v5/private`,
      trade: `${root}/v5/trade`,
    },
  }),
  // ccxt's okx appends /public, /private or /business.
  okx: (root) => `${root}/ws/v5`,
};

export const sandboxVenues = Object.keys(REST);

/** Points a ccxt instance (`pro`: with its streams) at the venue's sandbox dialect at `base`. */
export const pointAtSandbox = (exchange: Exchange, venue: string, base: string, pro: boolean): void => {
  const rest = REST[venue];
  const ws = WS[venue];
  if (!rest || !ws) {
    throw new ExchangeError(
      'EXCHANGE_UNSUPPORTED',
      `the sandbox speaks ${sandboxVenues.join(', ')}, not ${venue}`,
    );
  }
  const api = exchange.urls.api as Record<string, unknown>;
  const streams = ws(wsOf(base));
  exchange.urls.api = {
    ...api,
    ...rest(trimmed(base)),
    ...(pro
      ? {
          ws:
            typeof streams === 'string'
              ? streams
              : { ...(api.ws as Record<string, unknown>), ...(streams as Record<string, unknown>) },
        }
      : {}),
  } as Exchange['urls']['api'];
};

/** A private stream's URL on the venue's sandbox dialect at `base` (`path`: the venue's, from its table). */
export const sandboxStreamUrl = (base: string, path: string): string => `${wsOf(base)}${path}`;
