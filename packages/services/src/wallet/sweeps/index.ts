// Sweeps of deposit addresses (docs/wallet.md#sweeps): planned and queued anywhere, carried out by
// the sweeper in the watcher process, which alone holds the deposit keys.

export * from './list-sweeps';
export * from './plan-sweep';
export * from './process-sweeps';
export * from './queue-sweeps';
export * from './sweep-keys';
