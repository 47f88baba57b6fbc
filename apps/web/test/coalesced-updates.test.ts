import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../src/api/api-error';
import { createCoalescedUpdates } from '../src/state/coalesced-updates';

type Settings = { fills: boolean; wallet: boolean; bonuses: boolean };
const WINDOW = 1500;

/** A server holding the settings that refuses a request within the window of the previous one. */
const setup = (refuse: (patch: Partial<Settings>) => unknown = () => null) => {
  let stored: Settings = { fills: false, wallet: true, bonuses: true };
  let last = Number.NEGATIVE_INFINITY;
  const sent: Partial<Settings>[] = [];
  const saved: Settings[] = [];
  const failed: Partial<Settings>[] = [];
  const updates = createCoalescedUpdates<Settings>({
    windowMs: WINDOW,
    send: async (patch) => {
      sent.push(patch);
      if (Date.now() - last < WINDOW) throw new ApiError({ status: 429, code: 'RATE_LIMITED' });
      last = Date.now();
      const refusal = refuse(patch);
      if (refusal) throw refusal;
      stored = { ...stored, ...patch };
      return stored;
    },
    isRetryable: (error) => error instanceof ApiError && error.status === 429,
    onSaved: (settings) => saved.push(settings),
    onFailed: (patch) => failed.push(patch),
  });
  return { updates, sent, saved, failed, stored: () => stored };
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('notification switches toggled quickly', () => {
  it('both stick: the second waits for the window, none is refused as too many requests', async () => {
    const server = setup();
    server.updates.push({ fills: true });
    server.updates.push({ wallet: false });
    await vi.runAllTimersAsync();
    expect(server.sent).toEqual([{ fills: true }, { wallet: false }]);
    expect(server.stored()).toEqual({ fills: true, wallet: false, bonuses: true });
    expect(server.failed).toEqual([]);
  });

  it('sends what was toggled meanwhile in one request, the last value of a key winning', async () => {
    const server = setup();
    server.updates.push({ fills: true });
    server.updates.push({ wallet: false });
    server.updates.push({ bonuses: false });
    server.updates.push({ wallet: true });
    await vi.runAllTimersAsync();
    expect(server.sent).toEqual([{ fills: true }, { wallet: true, bonuses: false }]);
    expect(server.stored()).toEqual({ fills: true, wallet: true, bonuses: false });
  });

  it('gives a refused change back, unless a newer one replaced it', async () => {
    const server = setup((patch) => ('bonuses' in patch ? new ApiError({ status: 500 }) : null));
    server.updates.push({ fills: true });
    server.updates.push({ bonuses: false });
    await vi.runAllTimersAsync();
    expect(server.failed).toEqual([{ bonuses: false }]);
    expect(server.stored()).toEqual({ fills: true, wallet: true, bonuses: true });
  });
});
