import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls until `check` holds (the database or exchange state a test waits for). Not a timing
 * assertion: the timeout only bounds a hung test.
 */
export const waitFor = async (check: () => Promise<boolean>, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(50);
  }
};
