export { startWorker, type WorkerOptions } from './start-worker';
