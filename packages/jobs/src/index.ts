export * from './bullmq-queue';
export * from './define-job';
export * from './definitions/bonus';
export * from './definitions/grid';
export * from './in-process-queue';
