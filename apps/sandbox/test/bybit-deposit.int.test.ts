import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxExchangeHandle, startSandboxExchange } from '../src/index';
import { ccxtBybit, signedRequest } from './bybit-support';
import { FIXED_BTC_USDT } from './support/markets';

/** The Bybit dialect's deposit address (asset/master-deposit-addr.mdx; docs/venues/bybit.md#endpoints). */
let sandbox: SandboxExchangeHandle;

beforeAll(async () => {
  sandbox = await startSandboxExchange({ port: 0, bybitPort: 0, markets: [FIXED_BTC_USDT] });
});
afterAll(async () => sandbox.close());

describe('deposit address', () => {
  it('answers a TRC20 address per account, the same as the Binance dialect gives the account', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const other = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const { body } = await signedRequest(sandbox, 'GET', '/v5/asset/deposit/query-address', trader, {
      coin: 'USDT',
      chainType: 'TRX',
    });
    expect(body.retCode).toBe(0);
    const chains = body.result.chains as Record<string, string>[];
    expect(body.result.coin).toBe('USDT');
    expect(chains).toEqual([
      {
        chainType: 'TRC20',
        addressDeposit: expect.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
        tagDeposit: '',
        chain: 'TRX',
        batchReleaseLimit: '-1',
        contractAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
      },
    ]);
    const again = await signedRequest(sandbox, 'GET', '/v5/asset/deposit/query-address', trader, {
      coin: 'USDT',
    });
    expect((again.body.result.chains as Record<string, string>[])[0]?.addressDeposit).toBe(
      chains[0]?.addressDeposit,
    );
    const others = await signedRequest(sandbox, 'GET', '/v5/asset/deposit/query-address', other, {
      coin: 'USDT',
    });
    expect((others.body.result.chains as Record<string, string>[])[0]?.addressDeposit).not.toBe(
      chains[0]?.addressDeposit,
    );

    // The same account on the Binance port has the same address.
    const query = `coin=USDT&network=TRX&timestamp=${Date.now()}`;
    const signature = createHmac('sha256', trader.secret).update(query).digest('hex');
    const binance = await fetch(
      `${sandbox.url}/sapi/v1/capital/deposit/address?${query}&signature=${signature}`,
      {
        headers: { 'X-MBX-APIKEY': trader.apiKey },
      },
    );
    expect(((await binance.json()) as { address: string }).address).toBe(chains[0]?.addressDeposit);
  });

  it('ccxt fetchDepositAddress USDT on TRC20', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const address = await ccxtBybit(sandbox, trader).fetchDepositAddress('USDT', { network: 'TRC20' });
    expect(address).toMatchObject({
      currency: 'USDT',
      network: 'TRC20',
      address: expect.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
    });
  });

  it('refuses another coin or chain with 10001', async () => {
    const trader = sandbox.control.createAccount({ balances: { USDT: '10' } });
    const cases: Record<string, string>[] = [{ coin: 'BTC' }, { coin: 'USDT', chainType: 'ETH' }];
    for (const params of cases) {
      const { body } = await signedRequest(sandbox, 'GET', '/v5/asset/deposit/query-address', trader, params);
      expect(body.retCode).toBe(10001);
    }
  });
});
