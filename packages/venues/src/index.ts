import { binance } from './binance';
import { bybit } from './bybit';
import { okx } from './okx';
import type { VenueSpec } from './venue-spec';

export { binance, binanceRequestWeight } from './binance';
export { bybit } from './bybit';
export { okx } from './okx';
export type {
  ClientOrderIdRules,
  ClockRules,
  ErrorOutcome,
  ErrorRules,
  KeyRules,
  MarketRules,
  OverLimitRules,
  PoolScope,
  RatePool,
  RequestCost,
  RequestShape,
  StreamRules,
  VenueCode,
  VenueEndpoints,
  VenueSpec,
} from './venue-spec';

/**
 * Every venue the engine and the sandbox run, by ccxt id: the engine spends its request budget by
 * these tables (packages/exchange attach-budget.ts) and checks client order ids by their rules.
 */
export const VENUES: Readonly<Record<string, VenueSpec>> = { binance, bybit, okx };

/**
 * Every venue table, those still being added included (a venue joins VENUES once its sandbox
 * dialect and the engine's conformance suite run on it: docs/venues/README.md).
 */
export const VENUE_TABLES: Readonly<Record<string, VenueSpec>> = { ...VENUES };

/** The spec of a venue, or undefined for one we have no table for. */
export const venueSpec = (id: string): VenueSpec | undefined => VENUES[id];

/** The pools of a venue with the given scope. */
export const poolsOf = (spec: VenueSpec, scope: 'ip' | 'account') =>
  spec.pools.filter((p) => p.scope === scope);
