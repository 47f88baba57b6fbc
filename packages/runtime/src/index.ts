export * from './logger';
export * from './readiness';
export * from './run-main';
export * from './start-health-server';
