export * from './logger';
export * from './run-main';
