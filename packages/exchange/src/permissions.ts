import type { Exchange } from 'ccxt';
import { ExchangeError, guarded } from './errors';
import type { ExchangeCapabilities, ExchangeMode, KeyPermissions } from './types';

type BinanceKeyCalls = Exchange & {
  sapiGetAccountApiRestrictions(): Promise<Record<string, unknown>>;
  privateGetAccount(): Promise<Record<string, unknown>>;
};

const instant = (value: unknown): number | null => {
  const ms = typeof value === 'string' ? Number(value) : value;
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 ? ms : null;
};

/**
 * The key's permissions. Binance (live and our sandbox) reports them at
 * GET /sapi/v1/account/apiRestrictions (Binance wallet docs, "Get API Key Permission"): the
 * trading and withdrawal switches, `ipRestrict` and, on a key open to every IP,
 * `tradingAuthorityExpirationTime`. Reading is always on for a Binance key, so a -2015 here means
 * the request's IP is not on the key's list (an unknown key is -2008 on /sapi): API_KEY_IP_NOT_ALLOWED.
 * Binance's spot testnet has no /sapi: there the account's `canTrade` tells about trading, and
 * withdrawals do not exist (a testnet holds no real funds).
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
  const binance = exchange as BinanceKeyCalls;
  if (mode === 'testnet') {
    const account = await guarded(() => binance.privateGetAccount());
    return {
      spot: account.canTrade === true,
      withdrawals: false,
      ipRestricted: null,
      tradingExpiresAt: null,
    };
  }
  const restrictions = await guarded(() => binance.sapiGetAccountApiRestrictions()).catch(
    (error: unknown) => {
      throw ipRefusal(error) ?? error;
    },
  );
  return {
    spot: restrictions.enableSpotAndMarginTrading === true,
    withdrawals: restrictions.enableWithdrawals === true,
    ipRestricted: typeof restrictions.ipRestrict === 'boolean' ? restrictions.ipRestrict : null,
    tradingExpiresAt: instant(restrictions.tradingAuthorityExpirationTime),
  };
};

/** A -2015 on a read every key may make: the key refuses this IP. */
const ipRefusal = (error: unknown): ExchangeError | null =>
  error instanceof ExchangeError && error.options.exchangeCode === '-2015'
    ? new ExchangeError('API_KEY_IP_NOT_ALLOWED', 'the API key does not accept requests from this IP', {
        exchangeCode: error.options.exchangeCode,
        exchangeMessage: error.options.exchangeMessage,
        cause: error,
      })
    : null;

/** Spot trading is off because its term ended (Binance's 30 days for a key open to every IP). */
export const tradingExpired = (permissions: KeyPermissions, now = Date.now()): boolean =>
  !permissions.spot && permissions.tradingExpiresAt !== null && permissions.tradingExpiresAt <= now;

/**
 * The exchange account's id (Binance: `uid` of GET /api/v3/account), to tell a key of another
 * account from a new key of the same one; null where the venue does not report it.
 */
export const fetchAccountUid = async (exchange: Exchange): Promise<string | null> => {
  const account = await guarded(() => (exchange as BinanceKeyCalls).privateGetAccount());
  const uid = account.uid;
  return typeof uid === 'number' || (typeof uid === 'string' && uid !== '') ? String(uid) : null;
};

/**
 * Refuses a key we must not use: invalid (API_KEY_INVALID), refusing our IP (API_KEY_IP_NOT_ALLOWED),
 * without spot trading (API_KEY_NO_SPOT, or API_KEY_TRADING_EXPIRED when its term ended), or able to
 * withdraw (API_KEY_WITHDRAW_ENABLED, docs/security.md). Network trouble: EXCHANGE_UNAVAILABLE.
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
  if (tradingExpired(permissions)) {
    throw new ExchangeError('API_KEY_TRADING_EXPIRED', "the API key's spot trading term has ended");
  }
  if (!permissions.spot) throw new ExchangeError('API_KEY_NO_SPOT', 'the API key cannot trade spot');
  return permissions;
};
