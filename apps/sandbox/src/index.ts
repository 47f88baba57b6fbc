/** @gridbot/sandbox: local stand-ins for the outside world, speaking the real protocols (see README.md). */
export * from './exchange/index';
export * from './telegram/index';
export * from './tron/index';
