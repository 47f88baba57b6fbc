export * from './bullmq-queue';
export * from './define-job';
export * from './in-process-queue';
