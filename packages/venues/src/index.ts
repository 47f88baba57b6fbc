import { binance } from './binance';
import type { VenueSpec } from './venue-spec';

export { binance, binanceRequestWeight } from './binance';
export type {
  ClockRules,
  OverLimitRules,
  PoolScope,
  RatePool,
  RequestCost,
  RequestShape,
  StreamRules,
  VenueSpec,
} from './venue-spec';

/** Every venue we know, by ccxt id. */
export const VENUES: Readonly<Record<string, VenueSpec>> = { binance };

/** The spec of a venue, or undefined for one we have no table for. */
export const venueSpec = (id: string): VenueSpec | undefined => VENUES[id];

/** The pools of a venue with the given scope. */
export const poolsOf = (spec: VenueSpec, scope: 'ip' | 'account') =>
  spec.pools.filter((p) => p.scope === scope);
