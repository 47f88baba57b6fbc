import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSandboxExchangeApp, type SandboxExchangeHandle, startSandboxExchange } from '../src/index';

let sandbox: SandboxExchangeHandle;
let app: ReturnType<typeof buildSandboxExchangeApp>;
let trader: { apiKey: string; secret: string };

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0 });
  app = buildSandboxExchangeApp(sandbox.exchange, sandbox.control);
  trader = sandbox.control.createAccount({ balances: { USDT: '100' } });
});
afterAll(async () => {
  await app.close();
  await sandbox.close();
});

/** Every spelling a router, a proxy or a client library might turn into /_sandbox/. */
const prefixes = [
  '/_sandbox',
  '/%5Fsandbox',
  '/%5fsandbox',
  '/%5F%73andbox',
  '/_%73andbox',
  '//_sandbox',
  '/_SANDBOX',
  '/./_sandbox',
  '/%2e/_sandbox',
  '/_sandbox/.',
  '/_sandbox/%2e',
  '/_sandbox.',
];

const state = () => ({
  markets: sandbox.control.markets(),
  account: sandbox.control.account(trader.apiKey),
  orders: sandbox.control.orders(trader.apiKey),
});

describe('control API off the loopback interface', () => {
  it.each(prefixes)('%s/… answers 403 or 404 and changes nothing', async (prefix) => {
    const before = state();
    const calls = [
      { method: 'GET', url: `${prefix}/markets` },
      { method: 'GET', url: `${prefix}/accounts/${trader.apiKey}` },
      { method: 'POST', url: `${prefix}/accounts`, payload: { balances: { USDT: '1000000' } } },
      {
        method: 'PUT',
        url: `${prefix}/accounts/${trader.apiKey}/balances`,
        payload: { balances: { USDT: '1' } },
      },
      {
        method: 'PUT',
        url: `${prefix}/accounts/${trader.apiKey}/permissions`,
        payload: { withdrawals: true },
      },
      { method: 'PUT', url: `${prefix}/markets/BTCUSDT/price`, payload: { price: '1' } },
      { method: 'POST', url: `${prefix}/advance`, payload: { steps: 5 } },
      { method: 'POST', url: `${prefix}/faults/next-order`, payload: { kind: 'unknown' } },
    ] as const;
    for (const call of calls) {
      const response = await app.inject({ ...call, remoteAddress: '10.1.2.3' });
      expect([403, 404], `${call.method} ${call.url}`).toContain(response.statusCode);
      expect(response.body).not.toContain('apiKey');
    }
    expect(state()).toEqual(before);
    expect(sandbox.exchange.takeOrderResponseFault()).toBeUndefined();
  });

  it('keeps answering loopback clients, whichever spelling they use', async () => {
    for (const prefix of ['/_sandbox', '/%5Fsandbox']) {
      const response = await app.inject({ method: 'GET', url: `${prefix}/markets`, remoteAddress: '::1' });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(sandbox.control.markets());
    }
  });
});
