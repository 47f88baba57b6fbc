export type { BalanceView, KeyPermissions, NewAccount, NewKeyCredentials } from './accounts';
export { BinanceError } from './binance-error';
export { buildBybitApp } from './bybit/bybit-app';
export type {
  SandboxControl,
  SandboxMarketView,
  SandboxOrderView,
  SandboxPastCandle,
  SandboxTradeView,
} from './control';
export type { DialectLoggedRequest } from './dialect-request-log';
export type { LiquiditySpec } from './liquidity';
export type { MarketSpec, PercentPriceBySideSpec } from './markets';
export { buildOkxApp, type OkxAppOptions, type OkxDialect } from './okx/okx-app';
export { type Candle, loadCandleFile, type PriceFeedSpec } from './price-feed';
export { type ForcedOverLimit, IN_FLIGHT_MS, type LoggedRequest, type PoolLimits } from './rate-limits';
export { replayMarkets } from './replay-markets';
export {
  DEFAULT_MARKETS,
  type ExchangeOutage,
  type OrderResponseFault,
  SandboxExchange,
  type SandboxMarketConfig,
} from './sandbox-exchange';
export {
  buildSandboxExchangeApp,
  type SandboxExchangeHandle,
  type SandboxExchangeOptions,
  startSandboxExchange,
} from './start-sandbox-exchange';
export {
  readSandboxState,
  SandboxStateError,
  STATE_FORMAT,
  STATE_VERSION,
  writeSandboxState,
} from './state-file';
export {
  BINANCE_USER_DATA_LIMITS,
  type UserDataConnections,
  type UserDataConnectionView,
  type UserDataLimits,
} from './user-data-connections';
export type { UserDataStreams } from './user-data-streams';
export { type WaveShape, waveHistory } from './wave-history';
