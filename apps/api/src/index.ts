export { buildApp } from './app';
export { findWebDist, publicUrlOf, startApi, stopApi } from './start';
export type { AppDeps } from './types';
