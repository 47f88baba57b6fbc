import { ConfigError } from '@gridbot/config';
import { scrubSecrets } from './log-secrets';

/** What a started app hands back: how to stop it (drain, finish or release work, close). */
export type RunningApp = { stop: () => Promise<void> };

export type RunMainOptions = {
  /** A stop that takes longer than this ends the process anyway (default 20 s). */
  stopDeadlineMs?: number;
};

/**
 * Errors whose message is the whole story for the operator (no stack trace): an invalid
 * environment, a data folder held by another process. Anything else is a bug: print the stack.
 */
const isOperatorError = (error: unknown): error is Error =>
  error instanceof ConfigError ||
  (error instanceof Error && (error as { operatorMessage?: boolean }).operatorMessage === true);

/** What a failed start prints, scrubbed of every registered secret (docs/security.md#logs). */
export const describeStartFailure = (name: string, error: unknown): string =>
  scrubSecrets(
    isOperatorError(error)
      ? `${name}: ${error.message}`
      : `${name}: failed to start\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );

/**
 * The body of every app's main.ts: start, then stop exactly once on SIGINT/SIGTERM. The process
 * exits 0 after a clean stop, 1 when start-up or stopping failed or the stop missed its deadline.
 */
export const runMain = (name: string, start: () => Promise<RunningApp>, options: RunMainOptions = {}) => {
  let running: RunningApp | undefined;
  let stopping = false;

  const stopOnce = () => {
    const deadline = setTimeout(() => {
      process.stderr.write(`${name}: stop took too long, exiting\n`);
      process.exit(1);
    }, options.stopDeadlineMs ?? 20_000);
    deadline.unref();
    process.stderr.write(`${name}: stopping\n`);
    (running?.stop() ?? Promise.resolve())
      .then(() => {
        process.stderr.write(`${name}: stopped\n`);
        process.exit(0);
      })
      .catch((error: unknown) => {
        process.stderr.write(
          scrubSecrets(`${name}: stop failed: ${error instanceof Error ? error.stack : String(error)}\n`),
        );
        process.exit(1);
      });
  };
  const shutdown = () => {
    // One stop only: a signal delivered twice (terminal group and a parent forwarding it) must not
    // cut a clean stop short; the deadline ends a stop that hangs.
    if (stopping) return;
    stopping = true;
    // Still starting: the stop runs as soon as there is something to stop.
    if (running) stopOnce();
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  start()
    .then((app) => {
      running = app;
      if (stopping) stopOnce();
    })
    .catch((error: unknown) => {
      process.stderr.write(`${describeStartFailure(name, error)}\n`);
      process.exit(1);
    });
};
