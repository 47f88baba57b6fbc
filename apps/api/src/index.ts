export { buildApp } from './app';
export { findWebDist, publicUrlOf, startApi } from './start';
export type { AppDeps } from './types';
