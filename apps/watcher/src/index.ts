/** @gridbot/watcher: TRC20 deposit detection, withdrawal broadcasting and sweeps (README.md). */
export { type Sweeper, type SweeperOptions, startSweeper } from './start-sweeper';
export { startWatcher, type Watcher, type WatcherOptions } from './start-watcher';
