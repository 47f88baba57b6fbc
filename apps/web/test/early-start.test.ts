import { getConfig } from '@gridbot/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callApi, resetRequestGuard } from '../src/api/call-api';
import { requestPath } from '../src/api/request-url';
import { forgetEarlyAnswers } from '../src/session/early-start';
import { initialCalls, pageRequests, pageRequestUrl } from '../src/session/initial-calls';

const UID = 100_003;
const TOKEN = 'token-of-the-page';
const HEADERS = {
  Accept: 'application/json',
  'X-Requested-With': 'XMLHttpRequest',
  Authorization: `Bearer ${TOKEN}`,
};
const LOCALIZATION = '/home/config/localization/get';

/** A page whose inline script has signed in with TOKEN and sent GET LOCALIZATION (index.html). */
const pageSent = (answer: Promise<Response>, headers: Record<string, string> = HEADERS) => {
  vi.stubGlobal('document', { cookie: `gb_token=${TOKEN}` });
  vi.stubGlobal('window', {
    __gridbotEarly: {
      initialLoad: Promise.resolve([{ method: 'GET', url: LOCALIZATION, headers, response: answer }]),
    },
  });
  const fetch = vi.fn(async () => Response.json({ name: 'localization', data: 'en' }));
  vi.stubGlobal('fetch', fetch);
  return fetch;
};

afterEach(() => {
  vi.unstubAllGlobals();
  resetRequestGuard();
});

describe('the initial load sent by the page (docs/performance.md#web)', () => {
  it('asks exactly what the app asks, each request once', () => {
    const app = initialCalls(UID).map(
      ({ endpoint, input }) => `${endpoint.method} ${requestPath(endpoint.path, input)}`,
    );
    const page = pageRequests().map(({ method, url }) => `${method} ${pageRequestUrl(url, UID)}`);
    expect(page).toEqual([...new Set(app)]);
    expect(page).toContain(`GET /portfolio/profit?user_id=${UID}&days=30`);
    expect(page).toHaveLength(7);
  });

  it("takes the page's answer as the call's, through the contract, once", async () => {
    const fetch = pageSent(Promise.resolve(Response.json({ name: 'localization', data: 'ru' })));
    await expect(callApi(getConfig, { params: { name: 'localization' } })).resolves.toEqual({
      name: 'localization',
      data: 'ru',
    });
    expect(fetch).not.toHaveBeenCalled();
    resetRequestGuard();
    await expect(callApi(getConfig, { params: { name: 'localization' } })).resolves.toMatchObject({
      data: 'en',
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("turns the page's failed answers into the call's error object", async () => {
    pageSent(
      Promise.resolve(Response.json({ error: true, status: 401, message: 'Unauthorized' }, { status: 401 })),
    );
    await expect(callApi(getConfig, { params: { name: 'localization' } })).rejects.toMatchObject({
      status: 401,
    });
    resetRequestGuard();
    pageSent(Promise.reject(new TypeError('Failed to fetch')));
    await expect(callApi(getConfig, { params: { name: 'localization' } })).rejects.toMatchObject({
      code: 'NETWORK',
    });
  });

  it('sends its own call when the page signed in with another token, or after the initial load', async () => {
    const other = pageSent(Promise.resolve(Response.json({ name: 'localization', data: 'ru' })), {
      ...HEADERS,
      Authorization: 'Bearer another-token',
    });
    await expect(callApi(getConfig, { params: { name: 'localization' } })).resolves.toMatchObject({
      data: 'en',
    });
    expect(other).toHaveBeenCalledTimes(1);
    resetRequestGuard();
    const later = pageSent(Promise.resolve(Response.json({ name: 'localization', data: 'ru' })));
    forgetEarlyAnswers();
    await expect(callApi(getConfig, { params: { name: 'localization' } })).resolves.toMatchObject({
      data: 'en',
    });
    expect(later).toHaveBeenCalledTimes(1);
  });
});
