export * from './bullmq-queue';
export * from './define-job';
export * from './definitions/all-jobs';
export * from './definitions/bonus';
export * from './definitions/grid';
export * from './in-process-queue';
export * from './observe-queue-depth';
