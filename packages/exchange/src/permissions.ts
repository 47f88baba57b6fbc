import type { Exchange } from 'ccxt';
import { ExchangeError, guarded } from './errors';
import type { ExchangeCapabilities, ExchangeMode, KeyPermissions } from './types';

/**
 * The key's permissions. Binance (live and our sandbox) reports them at
 * GET /sapi/v1/account/apiRestrictions. Binance's spot testnet has no /sapi: there the account's
 * `canTrade` tells about trading, and withdrawals do not exist (a testnet holds no real funds).
 */
export const checkPermissions = async (
  exchange: Exchange,
  mode: ExchangeMode,
  capabilities: ExchangeCapabilities,
): Promise<KeyPermissions> => {
  if (!capabilities.keyPermissions) {
    throw new ExchangeError(
      'EXCHANGE_UNSUPPORTED',
      `${capabilities.exchange} does not report key permissions`,
    );
  }
  const binance = exchange as Exchange & {
    sapiGetAccountApiRestrictions(): Promise<Record<string, unknown>>;
    privateGetAccount(): Promise<Record<string, unknown>>;
  };
  if (mode === 'testnet') {
    const account = await guarded(() => binance.privateGetAccount());
    return { spot: account.canTrade === true, withdrawals: false };
  }
  const restrictions = await guarded(() => binance.sapiGetAccountApiRestrictions());
  return {
    spot: restrictions.enableSpotAndMarginTrading === true,
    withdrawals: restrictions.enableWithdrawals === true,
  };
};

/**
 * Refuses a key we must not use: invalid (API_KEY_INVALID), without spot trading (API_KEY_NO_SPOT),
 * or able to withdraw (API_KEY_WITHDRAW_ENABLED, docs/security.md). Network trouble: EXCHANGE_UNAVAILABLE.
 */
export const assertUsableKey = async (
  exchange: Exchange,
  mode: ExchangeMode,
  capabilities: ExchangeCapabilities,
): Promise<KeyPermissions> => {
  const permissions = await checkPermissions(exchange, mode, capabilities);
  if (permissions.withdrawals) {
    throw new ExchangeError(
      'API_KEY_WITHDRAW_ENABLED',
      'the API key can withdraw funds; disable withdrawals',
    );
  }
  if (!permissions.spot) throw new ExchangeError('API_KEY_NO_SPOT', 'the API key cannot trade spot');
  return permissions;
};
