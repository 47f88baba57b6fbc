export * from './log-errors';
export * from './log-secrets';
export * from './logger';
export * from './readiness';
export * from './run-main';
export * from './start-health-server';
