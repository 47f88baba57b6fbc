// The chain side of the wallet (docs/wallet.md): what apps/watcher runs against a TRON node.

export * from './credit-below-minimum';
export * from './decide-deposits';
export * from './hot-wallet';
export * from './hot-wallet-status';
export * from './network-fees';
export * from './node-back-off';
export * from './process-withdrawals';
export * from './scan-deposits';
export * from './tron-node-client';
export * from './usdt-transfers';
export * from './withdrawal-funding';
