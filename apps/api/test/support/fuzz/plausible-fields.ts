import { MAX_ID } from '@gridbot/contracts';
import fc from 'fast-check';
import type { FieldArbitraries } from './zod-arbitrary';

/**
 * Values a real client sends in fields whose schema alone rarely yields one that the handler
 * accepts (a listed coin, a valid TRON address with its checksum, settings inside their bounds,
 * signed launch data, someone's id), mixed with the derived ones so requests also succeed, fail
 * for business reasons and name other users' things. Keyed by field name, so a new contract with
 * a `coin` or a `summ` gets them too.
 */
export type PlausibleSources = {
  coins: readonly string[];
  /** Everyone's coin bot ids and UIDs. */
  ids: readonly number[];
  /** Valid TRON addresses: everyone's deposit addresses and an outside one. */
  addresses: readonly string[];
  /** Signed launch data: a known user, a renamed one, a newcomer with a referral, a stale one. */
  launchData: readonly string[];
  /** API keys the sandbox exchange knows (one with withdrawals enabled). */
  apiKeys: readonly string[];
};

const oneOf = <T>(values: readonly T[]) => fc.constantFrom(...values);

export const plausibleFields = (sources: PlausibleSources): FieldArbitraries => {
  const ids = oneOf([...sources.ids, 0, MAX_ID, MAX_ID + 1, Number.MAX_SAFE_INTEGER]);
  const coins = oneOf([...sources.coins, 'BTC', sources.coins[0]!.toLowerCase()]);
  const byField: Record<string, fc.Arbitrary<unknown>> = {
    coin: coins,
    coin_name: coins,
    data_send: coins,
    search: oneOf(['X', 'S', 'xr', '']),
    summ: oneOf(['1', '5', '11', '12.5', '20', '99.999999', '100', '100000']),
    address: oneOf(sources.addresses),
    orderSize: oneOf(['6', '10', '25.5', '100']),
    stepPct: oneOf(['0.5', '1', '2.5']),
    stepIncreasePct: oneOf(['0', '0.25', '1']),
    maxTrades: oneOf([1, 3, 5, 10]),
    level: oneOf(['PRO1', 'PRO2', 'FREE', 'pro1']),
    data: oneOf(['en', 'ru', 'cn', 'on', 'off', 'auto', 'light', 'dark', ' RU ']),
    _auth: oneOf(sources.launchData),
    initData: oneOf(sources.launchData),
    apiKey: oneOf(sources.apiKeys),
    secretKey: oneOf(sources.apiKeys),
  };
  return (key) => {
    if (Object.hasOwn(byField, key)) return byField[key];
    if (/(^|_)(id|uid)$|^to_user$/.test(key)) return fc.oneof(ids, ids.map(String));
    return undefined;
  };
};
