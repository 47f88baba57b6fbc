/** @gridbot/watcher: TRC20 deposit detection and withdrawal broadcasting (README.md). */
export { startWatcher, type Watcher, type WatcherOptions } from './start-watcher';
