import type { User } from '@gridbot/db';
import type { SandboxExchangeHandle } from '@gridbot/sandbox';
import { expect } from 'vitest';
import type { TestApp } from './test-app';

/**
 * A user with a fee balance and API keys of a new sandbox account holding 1000 USDT, saved through
 * the API (checked on the sandbox exchange).
 */
export const traderWithKeys = async (t: TestApp, sandbox: SandboxExchangeHandle, username: string) => {
  const user: User = await t.createUser({ username, feeBalance: '100' });
  const headers: Record<string, string> = await t.authHeader(user);
  const keys = sandbox.control.createAccount({ balances: { USDT: '1000' } });
  const saved = await t.app.inject({
    method: 'POST',
    url: '/profile/api_key',
    headers,
    payload: { apiKey: keys.apiKey, secretKey: keys.secret },
  });
  expect(saved.statusCode).toBe(200);
  return { user, headers, keys };
};
