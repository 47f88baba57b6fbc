export { buildApp } from './app';
export { startApi } from './start';
export type { AppDeps } from './types';
