export {
  type AccountAdjustment,
  type GenesisAllocation,
  SANDBOX_USDT_CONTRACT,
  SandboxTron,
  type SandboxTronConfig,
  type SendInput,
  type TronBalances,
} from './sandbox-tron';
export {
  buildSandboxTronApp,
  type SandboxTronHandle,
  type SandboxTronServerOptions,
  startSandboxTron,
} from './start-sandbox-tron';
export type { EventLog, TokenSpec } from './trc20-token';
export type { BroadcastAnswer, ChainBlock, TronChain } from './tron-chain';
export { SandboxTronStateError, TRON_JOURNAL_FORMAT, TRON_JOURNAL_VERSION } from './tron-journal';
export {
  CHAIN_PARAMETERS,
  ENERGY_TRANSFER_TO_EMPTY,
  ENERGY_TRANSFER_TO_HOLDER,
  FREE_NET_LIMIT,
} from './tron-resources';
export {
  type RequestQuota,
  type TrafficEntry,
  type TrafficReport,
  TronTraffic,
} from './tron-traffic';
export type { TronTransaction } from './tron-transaction';
