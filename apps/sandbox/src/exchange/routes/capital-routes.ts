import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { utils as tron } from 'tronweb';
import { BinanceError } from '../binance-error';
import { required } from '../order-params';
import type { SandboxExchange } from '../sandbox-exchange';
import { authenticate } from '../signed-request';

/** Binance's network id of TRC20 (ccxt sends `network=TRX` for the unified code TRC20). */
const TRON_NETWORK = 'TRX';

/**
 * A fixed TRON address per sandbox account: 0x41 and 20 bytes of a hash of the account id, in
 * base58check, so it is a valid address (the wallet checks it) that belongs to no known key. The
 * OKX dialect gives the same account the same address (okx/okx-account-routes.ts).
 */
export const tronDepositAddress = (accountId: number, wallet: 'trading' | 'funding' = 'trading'): string => {
  // OKX names a second address per account, crediting its funding account (okx-account-routes.ts).
  const seed =
    wallet === 'trading' ? `sandbox-exchange-deposit:${accountId}` : `sandbox-exchange-funding:${accountId}`;
  const body = createHash('sha256').update(seed).digest().subarray(0, 20);
  return tron.crypto.getBase58CheckAddress([0x41, ...body]);
};

/**
 * Binance's SIGNED capital endpoint for the account's deposit address
 * (`GET /sapi/v1/capital/deposit/address?coin=&network=`): USDT on TRON only, the one asset and
 * network the platform's wallet withdraws to an exchange account.
 */
export const capitalRoutes = (app: FastifyInstance, exchange: SandboxExchange): void => {
  app.get('/sapi/v1/capital/deposit/address', async (request) => {
    const { key, params } = authenticate(exchange, request, 'read');
    const coin = required(params, 'coin');
    const network = params.get('network') ?? TRON_NETWORK;
    if (coin !== 'USDT' || network !== TRON_NETWORK) {
      throw new BinanceError(-4018, 'The deposit address of this coin on this network is not supported.');
    }
    const address = tronDepositAddress(key.accountId);
    return { coin, address, tag: '', url: `https://tronscan.org/#/address/${address}` };
  });
};
