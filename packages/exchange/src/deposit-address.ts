import type { Exchange } from 'ccxt';
import { ExchangeError, guarded } from './errors';
import type { DepositAddress } from './types';

type OkxDepositCalls = Exchange & {
  privateGetAssetDepositAddress(params: { ccy: string }): Promise<{ data?: Record<string, unknown>[] }>;
};

/**
 * The deposit address for `currency` on `network` that credits the account the engine trades from.
 * OKX lists one address per account it credits (GET /api/v5/asset/deposit-address: `to` "6" the
 * funding account, "18" the trading account; docs/venues/okx.md#keys): a deposit to the funding
 * one is not tradable until moved, so the trading account's is taken. Elsewhere ccxt's answer.
 */
export const fetchTradableDepositAddress = async (
  exchange: Exchange,
  currency: string,
  network: string,
): Promise<DepositAddress> => {
  if (exchange.id === 'okx') {
    const answer = await guarded(() =>
      (exchange as OkxDepositCalls).privateGetAssetDepositAddress({ ccy: currency }),
    );
    // OKX names a chain `<ccy>-<network>` (USDT-TRC20).
    const chain = `${currency}-${network}`;
    const onChain = (answer.data ?? []).filter((a) => a.chain === chain && typeof a.addr === 'string');
    const found = onChain.find((a) => a.to === '18') ?? onChain[0];
    if (!found) throw new ExchangeError('EXCHANGE_UNAVAILABLE', `no ${currency} ${network} deposit address`);
    return {
      address: String(found.addr),
      tag: typeof found.tag === 'string' && found.tag !== '' ? found.tag : null,
    };
  }
  const found = await guarded(() => exchange.fetchDepositAddress(currency, { network }));
  if (typeof found.address !== 'string' || found.address === '') {
    throw new ExchangeError('EXCHANGE_UNAVAILABLE', `no ${currency} ${network} deposit address`);
  }
  return { address: found.address, tag: found.tag ?? null };
};
