/** @gridbot/exchange: the ccxt adapter (see README.md). */

export { createMemoryBudgetStore } from './budget/memory-budget';
export { currentRequestPriority, priorityOfRequest, withRequestPriority } from './budget/request-priority';
export {
  ALERT_SHARE,
  type BudgetEvent,
  type BudgetStore,
  createVenueBudget,
  endOfWindow,
  graceOf,
  type PoolCharge,
  PRIORITY_SHARE,
  type RequestPriority,
  type Reservation,
  type ReserveAnswer,
  ROLLING_SLOTS,
  type VenueBudget,
  WINDOW_GRACE_MS,
  windowEnd,
  windowIndex,
  windowsOf,
} from './budget/venue-budget';
export { CANDLE_INTERVALS, type CandleInterval, type ExchangeCandle } from './candles';
export { exchangeCapabilities } from './ccxt-instance';
export {
  type ClientOrderIdParts,
  clientOrderIdFor,
  isValidClientOrderId,
  parseClientOrderId,
  venueAcceptsClientOrderId,
} from './client-order-id';
export { createExchangeClient, type ExchangeClient } from './create-exchange-client';
export {
  EXCHANGE_ERROR_CODES,
  ExchangeError,
  type ExchangeErrorCode,
  isExchangeError,
  type VenueWait,
  venueWaitOf,
} from './errors';
export type { OrderStreamOptions } from './order-stream';
export { type MinimumViolation, minimumOrderValue, minimumViolation } from './precision';
export type { TradedRange } from './price-range';
export type * from './types';
export {
  type ConnectionLimit,
  type ConnectionLimiter,
  createMemoryConnectionLimiter,
} from './user-data/connection-limiter';
export { sharedUserDataStreams, USER_STREAM_CONNECTION_BUDGET } from './user-data/shared-user-data-streams';
export {
  createUserDataStreams,
  type UserDataAccount,
  type UserDataHandlers,
  type UserDataStreams,
  type UserDataStreamsLog,
  type UserDataStreamsOptions,
} from './user-data/user-data-streams';
export { WsApiError } from './user-data/ws-api-connection';
export {
  privateStreamConnectionBudget,
  privateStreamUrl,
  VENUE_ORDER_STREAMS,
} from './venue-streams/venue-order-stream';
