import {
  getConfig,
  getPanel,
  getPartnersOverview,
  getPortfolio,
  getProfile,
  getProfitChart,
  getWallet,
} from '@gridbot/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { toApiError } from '../api/api-error';
import { prefetchApi } from '../api/use-api';
import { normalizeLanguage } from '../i18n/language';
import { changeLanguage } from '../i18n/setup';
import type { SessionUser } from './session-store';

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

let languageApplied = false;

/** docs/product.md#behaviour: the language is set once from the stored value, lower-cased. */
const applyStoredLanguage = async (stored: string | null, user: SessionUser) => {
  if (languageApplied) return;
  languageApplied = true;
  await changeLanguage(normalizeLanguage(stored) ?? normalizeLanguage(user.language) ?? 'en');
};

/**
 * docs/product.md#behaviour initial load: everything in parallel once authenticated; content shows when all have
 * settled, and a failure is only logged.
 */
export const runInitialLoad = async (client: QueryClient, user: SessionUser): Promise<void> => {
  const calls: Array<[string, () => Promise<unknown>]> = [
    [
      'localization',
      async () => {
        const config = await prefetchApi(client, getConfig, INITIAL_INPUTS.localization);
        await applyStoredLanguage(config.data, user);
      },
    ],
    ['panel', () => prefetchApi(client, getPanel, INITIAL_INPUTS.panel)],
    ['coin profit', () => prefetchApi(client, getPortfolio, INITIAL_INPUTS.coinProfit)],
    ['portfolio', () => prefetchApi(client, getPortfolio, INITIAL_INPUTS.portfolio)],
    ['graph profit', () => prefetchApi(client, getProfitChart, INITIAL_INPUTS.graphProfit(user.uid))],
    ['partners', () => prefetchApi(client, getPartnersOverview, INITIAL_INPUTS.partners)],
    ['profile', () => prefetchApi(client, getProfile, INITIAL_INPUTS.profile)],
    ['wallet', () => prefetchApi(client, getWallet, INITIAL_INPUTS.wallet)],
  ];
  const results = await Promise.allSettled(calls.map(([, run]) => run()));
  results.forEach((result, index) => {
    if (result.status === 'fulfilled') return;
    const error = toApiError(result.reason);
    console.warn(`Initial load: ${calls[index]?.[0]} failed (${error.status} ${error.code})`);
  });
  if (!languageApplied) await applyStoredLanguage(null, user);
};
