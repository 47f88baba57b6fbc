import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The process's one registry: every metric of src/metrics.ts registers here, and `/metrics` (the
 * API's port, or an app's health port) renders it.
 */
export const metricsRegistry = new Registry();

let processMetrics = false;

/**
 * Adds Node's own figures (CPU, memory, event loop lag, GC) to the registry; called once by the
 * process that serves `/metrics`, so tests and CLIs do not start the event loop monitor.
 */
export const collectProcessMetrics = (): void => {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: metricsRegistry, prefix: 'gridbot_' });
};

/** The text exposition format and its content type, as `/metrics` sends them. */
export const renderMetrics = async (): Promise<{ contentType: string; body: string }> => ({
  contentType: metricsRegistry.contentType,
  body: await metricsRegistry.metrics(),
});
