import { getAppConfig } from '@gridbot/contracts';
import { useApiQuery } from '../api/use-api';

/**
 * The installation's support link (its SUPPORT_URL, from `GET /config`, which needs no sign-in so
 * a refused sign-in can offer it too); null until it has arrived.
 */
export const useSupportUrl = (): string | null =>
  useApiQuery(getAppConfig, {}, { staleTime: Number.POSITIVE_INFINITY }).data?.supportUrl ?? null;
