/**
 * Licence constants (docs/licences.md), without dependencies: the contracts (and so the web app) import
 * them from here, the rules in license-rules.ts use them.
 */
export const RENEWAL_DISCOUNT_PCT = '20';
export const RENEWAL_WINDOW_DAYS = 30;
export const FREE_LICENSE_DAYS = 14;
export const DEFAULT_LICENSE_LEVELS = ['FREE', 'PRO1', 'PRO2', 'PRO3', 'PRO4'] as const;
