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
 * The key's permissions, read from the venue's own report (each venue's table names the call:
 * `keys.check`, docs/venues/*.md#keys).
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
  if (exchange.id === 'bybit') return (await bybitKey(exchange)).permissions;
  if (exchange.id === 'okx') return (await okxKey(exchange)).permissions;
  return binancePermissions(exchange, mode);
};

/**
 * Binance (live and our sandbox) reports them at GET /sapi/v1/account/apiRestrictions (Binance
 * wallet docs, "Get API Key Permission"): the trading and withdrawal switches, `ipRestrict` and, on
 * a key open to every IP, `tradingAuthorityExpirationTime`. Reading is always on for a Binance key,
 * so a -2015 here means the request's IP is not on the key's list (an unknown key is -2008 on
 * /sapi): API_KEY_IP_NOT_ALLOWED. Binance's spot testnet has no /sapi: there the account's
 * `canTrade` tells about trading, and withdrawals do not exist (a testnet holds no real funds).
 */
const binancePermissions = async (exchange: Exchange, mode: ExchangeMode): Promise<KeyPermissions> => {
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

type BybitKeyCalls = Exchange & { privateGetV5UserQueryApi(): Promise<{ result?: Record<string, unknown> }> };

const listOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/**
 * Bybit, GET /v5/user/query-api (user/apikey-info.mdx): `readOnly` 0 and `SpotTrade` under
 * `permissions.Spot` to trade spot, `Withdraw` under `permissions.Wallet` to withdraw, `ips` ["*"]
 * when bound to no IP (such a key expires at `expiredAt`, Bybit's 3 months), `userID` the account,
 * `uta` / `unified` 1 on a Unified Trading Account (0: a classic account, whose spot wallet the
 * engine does not trade from).
 * An IP the key is not bound to answers 10010: API_KEY_IP_NOT_ALLOWED. docs/venues/bybit.md#keys
 */
const bybitKey = async (exchange: Exchange) => {
  const answer = await guarded(() => (exchange as BybitKeyCalls).privateGetV5UserQueryApi()).catch(
    (error: unknown) => {
      throw ipRefusal(error) ?? error;
    },
  );
  const key = answer.result ?? {};
  const permissions = (key.permissions ?? {}) as Record<string, unknown>;
  const ips = listOf(key.ips);
  const ipRestricted = ips.length > 0 && !ips.includes('*');
  const expiresAt =
    typeof key.expiredAt === 'string' && key.expiredAt !== '' ? Date.parse(key.expiredAt) : NaN;
  return {
    permissions: {
      spot: Number(key.readOnly) === 0 && listOf(permissions.Spot).includes('SpotTrade'),
      withdrawals: listOf(permissions.Wallet).includes('Withdraw'),
      ipRestricted,
      tradingExpiresAt: Number.isFinite(expiresAt) ? expiresAt : null,
      unifiedAccount: Number(key.uta) === 1 || Number(key.unified) === 1,
    } satisfies KeyPermissions,
    uid: key.userID === undefined || key.userID === null ? null : String(key.userID),
  };
};

type OkxKeyCalls = Exchange & { privateGetAccountConfig(): Promise<{ data?: Record<string, unknown>[] }> };

/**
 * OKX, GET /api/v5/account/config (Trading Account, "Get account configuration"): `perm` lists
 * `read_only`, `trade` and `withdraw`; `ip` the bound IPs (empty: none — OKX then deletes a key
 * with trading rights after 14 days unused, which we cannot read); `uid` the account.
 * docs/venues/okx.md#keys
 */
const okxKey = async (exchange: Exchange) => {
  const answer = await guarded(() => (exchange as OkxKeyCalls).privateGetAccountConfig()).catch(
    (error: unknown) => {
      throw ipRefusal(error) ?? error;
    },
  );
  const config = answer.data?.[0] ?? {};
  const perm = String(config.perm ?? '')
    .split(',')
    .map((p) => p.trim());
  const ip = String(config.ip ?? '').trim();
  return {
    permissions: {
      spot: perm.includes('trade'),
      withdrawals: perm.includes('withdraw'),
      ipRestricted: ip !== '',
      tradingExpiresAt: null,
    } satisfies KeyPermissions,
    uid: config.uid === undefined || config.uid === '' ? null : String(config.uid),
  };
};

/**
 * A refusal of a read every key may make because of the caller's IP: Binance -2015, Bybit 10010
 * ("Unmatched IP"), OKX 50110 (IP not in the key's whitelist).
 */
const IP_REFUSALS = new Set(['-2015', '10010', '50110']);

const ipRefusal = (error: unknown): ExchangeError | null =>
  error instanceof ExchangeError && IP_REFUSALS.has(error.options.exchangeCode ?? '')
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
  if (exchange.id === 'bybit') return (await bybitKey(exchange)).uid;
  if (exchange.id === 'okx') return (await okxKey(exchange)).uid;
  const account = await guarded(() => (exchange as BinanceKeyCalls).privateGetAccount());
  const uid = account.uid;
  return typeof uid === 'number' || (typeof uid === 'string' && uid !== '') ? String(uid) : null;
};

/**
 * Refuses a key we must not use: invalid (API_KEY_INVALID), refusing our IP (API_KEY_IP_NOT_ALLOWED),
 * without spot trading (API_KEY_NO_SPOT, or API_KEY_TRADING_EXPIRED when its term ended), of a Bybit
 * classic account (API_KEY_ACCOUNT_TYPE), or able to withdraw (API_KEY_WITHDRAW_ENABLED, docs/security.md). Network trouble: EXCHANGE_UNAVAILABLE.
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
  if (permissions.unifiedAccount === false) {
    throw new ExchangeError(
      'API_KEY_ACCOUNT_TYPE',
      'the API key belongs to a classic account; the bot trades from a Unified Trading Account',
    );
  }
  return permissions;
};
