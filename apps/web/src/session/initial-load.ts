import { getConfig } from '@gridbot/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { toApiError } from '../api/api-error';
import { prefetchApi } from '../api/use-api';
import { normalizeLanguage } from '../i18n/language';
import { changeLanguage } from '../i18n/setup';
import { forgetEarlyAnswers } from './early-start';
import { INITIAL_INPUTS, type InitialCall, initialCalls } from './initial-calls';
import type { SessionUser } from './session-store';

let languageApplied = false;

/** docs/product.md#behaviour: the language is set once from the stored value, lower-cased. */
const applyStoredLanguage = async (stored: string | null, user: SessionUser) => {
  if (languageApplied) return;
  languageApplied = true;
  await changeLanguage(normalizeLanguage(stored) ?? normalizeLanguage(user.language) ?? 'en');
};

/**
 * docs/product.md#behaviour initial load: everything in parallel once authenticated; content shows when all have
 * settled, and a failure is only logged. The requests index.html already sent for this user are
 * taken as these calls (docs/performance.md#web).
 */
export const runInitialLoad = async (client: QueryClient, user: SessionUser): Promise<void> => {
  const load = async ({ endpoint, input }: InitialCall): Promise<void> => {
    if (endpoint !== getConfig) {
      await prefetchApi(client, endpoint, input);
      return;
    }
    const config = await prefetchApi(client, getConfig, INITIAL_INPUTS.localization);
    await applyStoredLanguage(config.data, user);
  };
  const calls = initialCalls(user.uid);
  const results = await Promise.allSettled(calls.map(load));
  forgetEarlyAnswers();
  results.forEach((result, index) => {
    if (result.status === 'fulfilled') return;
    const error = toApiError(result.reason);
    console.warn(`Initial load: ${calls[index]?.name} failed (${error.status} ${error.code})`);
  });
  if (!languageApplied) await applyStoredLanguage(null, user);
};
