export * from './metrics';
export * from './metrics-token';
export * from './registry';
