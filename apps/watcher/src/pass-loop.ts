/**
 * One loop of passes, the watcher's and the sweeper's: a pass now, then one `intervalMs` after each
 * pass ends, never two at once; `runOnce` queues an extra pass after the one in progress, `stop`
 * ends the loop and resolves once the pass in progress has finished. A pass handles its own errors.
 */
export const startPassLoop = (pass: () => Promise<void>, intervalMs: number) => {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const runOnce = () => {
    current = current.then(pass);
    return current;
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      void runOnce().then(schedule);
    }, intervalMs);
  };
  void runOnce().then(schedule);
  return {
    runOnce,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
};
