import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether a scrape may read `/metrics`: always when no METRICS_TOKEN is set, else only with
 * `Authorization: Bearer <token>` (compared in constant time, over digests of equal length).
 */
export const metricsAllowed = (authorization: string | undefined, token: string | undefined): boolean => {
  if (!token) return true;
  const given = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
  if (!given) return false;
  return timingSafeEqual(digest(given), digest(token));
};
