/**
 * Resolves in the page's next idle moment, at the latest after `timeoutMs`: for work nobody is
 * waiting for, so it never holds up a render or a tap (docs/performance.md#web).
 */
export const whenIdle = (timeoutMs: number): Promise<void> =>
  new Promise((resolve) => {
    if (typeof window.requestIdleCallback === 'function')
      window.requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else setTimeout(resolve, 1);
  });
