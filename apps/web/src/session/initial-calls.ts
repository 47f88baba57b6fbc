import {
  type EndpointDefinition,
  getConfig,
  getPanel,
  getPartnersOverview,
  getPortfolio,
  getProfile,
  getProfitChart,
  getWallet,
} from '@gridbot/contracts';
import type { CallInput } from '../api/call-api';
import { requestPath } from '../api/request-url';

/**
 * Inputs of the initial load, shared with the screens so they read the same cache entries (the
 * panel and the wallet are rate limited to 1 call per 2 s: a second key would be refused).
 */
export const INITIAL_INPUTS = {
  localization: { params: { name: 'localization' } },
  panel: {},
  /** docs/product.md#limits: coin profit for period 'day' — the portfolio's per-coin profit window. */
  coinProfit: { query: { period: 'day' } },
  portfolio: { query: { period: 'day' } },
  graphProfit: (uid: number) => ({ query: { user_id: uid, days: 30 } }),
  partners: {},
  profile: {},
  /** docs/product.md#limits: wallet history window 30 days, page size 10. */
  wallet: { query: { days: 30, page: 1, limit: 10 } },
} as const;

export type InitialCall = {
  name: string;
  endpoint: EndpointDefinition;
  input: CallInput<EndpointDefinition>;
};

const call = <E extends EndpointDefinition>(name: string, endpoint: E, input: CallInput<E>): InitialCall => ({
  name,
  endpoint,
  input: input as CallInput<EndpointDefinition>,
});

/**
 * docs/product.md#behaviour initial load: the calls sent in parallel once signed in. "Coin profit
 * (day)" and "portfolio" are the same call (one cache entry, one request).
 */
export const initialCalls = (uid: number): InitialCall[] => [
  call('localization', getConfig, INITIAL_INPUTS.localization),
  call('panel', getPanel, INITIAL_INPUTS.panel),
  call('coin profit', getPortfolio, INITIAL_INPUTS.coinProfit),
  call('portfolio', getPortfolio, INITIAL_INPUTS.portfolio),
  call('graph profit', getProfitChart, INITIAL_INPUTS.graphProfit(uid)),
  call('partners', getPartnersOverview, INITIAL_INPUTS.partners),
  call('profile', getProfile, INITIAL_INPUTS.profile),
  call('wallet', getWallet, INITIAL_INPUTS.wallet),
];

/** What stands for the signed-in user's id in the requests written into index.html. */
const PAGE_UID = '{uid}';
/** The same, as it reads in a URL's query. */
export const PAGE_UID_IN_URL = encodeURIComponent(PAGE_UID);

/**
 * The initial load's requests as index.html's inline script sends them the moment sign-in answers
 * (docs/performance.md#web), each distinct request once: method and path with query, the user's
 * id as `PAGE_UID_IN_URL`. Built from the contracts at build time (`build/early-requests.ts`), so the
 * page asks exactly what the app would, and the app takes those answers as its own calls.
 */
export const pageRequests = (): Array<{ method: string; url: string }> => {
  const requests = initialCalls(PAGE_UID as unknown as number).map(({ endpoint, input }) => ({
    method: endpoint.method,
    url: requestPath(endpoint.path, input),
  }));
  return requests.filter(
    (request, index) =>
      requests.findIndex((other) => other.method === request.method && other.url === request.url) === index,
  );
};

/** A page request's URL for the user `uid` (what the inline script does, for tests). */
export const pageRequestUrl = (url: string, uid: number): string =>
  url.split(PAGE_UID_IN_URL).join(String(uid));
