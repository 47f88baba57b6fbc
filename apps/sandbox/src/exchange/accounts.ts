import { randomBytes } from 'node:crypto';
import type { Decimal } from 'decimal.js';
import { Dec, fmt8, ZERO } from './money';
import { refuse } from './refusal';

/** What a key may do, as Binance's GET /sapi/v1/account/apiRestrictions reports it. */
export type KeyPermissions = { spot: boolean; withdrawals: boolean };

/**
 * Who may use a key and until when it may trade. Binance: a key restricted to trusted IPs answers
 * only requests from them (any other gets -2015); a key open to every IP keeps "Enable Spot &
 * Margin Trading" for 30 days only, then Binance unticks it (announcement "Updates to API Key
 * Permission Rules", 2021-07-08; GET /sapi/v1/account/apiRestrictions reports the end as
 * `tradingAuthorityExpirationTime`).
 */
export type KeyAccess = {
  /** Trusted IPs; empty: the key answers any IP (Binance's "Unrestricted"). */
  ipWhitelist: string[];
  /** When spot trading ends (ms), null when it does not (restricted keys, keys older than the rule). */
  tradingExpiresAt: number | null;
};

export type ApiKeyRecord = KeyAccess & {
  apiKey: string;
  secret: string;
  /**
   * OKX's third credential, chosen when the key is made (docs/venues/okx.md#keys); only the OKX
   * dialect reads it. Absent on keys saved before the OKX dialect existed: such a key cannot sign
   * OKX requests.
   */
  passphrase?: string;
  /**
   * The key's Bybit account is a classic (not unified) one: GET /v5/user/query-api says `uta` 0
   * (docs/venues/bybit.md#keys). Only the Bybit dialect reads it.
   */
  bybitClassic?: boolean;
  accountId: number;
  permissions: KeyPermissions;
  createdAt: number;
};

type Holding = { free: Decimal; locked: Decimal };

export type Account = {
  id: number;
  holdings: Map<string, Holding>;
  updatedAt: number;
  /** Binance's "BNB burn" for spot: pay trading fees in BNB at its discount (commission.ts). */
  bnbBurn: boolean;
};

export type BalanceView = { asset: string; free: string; locked: string };

/** The book as saved in the state file: amounts as decimal strings. */
export type SavedAccounts = {
  nextId: number;
  accounts: {
    id: number;
    updatedAt: number;
    holdings: Record<string, { free: string; locked: string }>;
    /** Absent in files written before fees could be paid in BNB. */
    bnbBurn?: boolean;
  }[];
  keys: (Omit<ApiKeyRecord, keyof KeyAccess> & Partial<KeyAccess>)[];
};

export type NewAccount = {
  balances?: Record<string, string>;
  permissions?: Partial<KeyPermissions>;
  /** Pay trading fees in BNB at Binance's discount while the BNB balance suffices (default false). */
  bnbBurn?: boolean;
  /** Fixed credentials (the demo seeds known keys); random ones otherwise. */
  apiKey?: string;
  secret?: string;
  /** The key's OKX passphrase (a random one otherwise, returned with the key). */
  passphrase?: string;
  /** A Bybit classic account rather than a Unified Trading Account (default false). */
  bybitClassic?: boolean;
} & Partial<KeyAccess>;

/** What a new key's owner is told once: the credentials. */
export type NewKeyCredentials = { apiKey: string; secret: string; passphrase: string };

/** Binance's term for spot trading on a key without an IP restriction. */
export const UNRESTRICTED_TRADING_MS = 30 * 86_400_000;

/** The access of a new key: an unrestricted one that trades gets Binance's 30-day term. */
const newKeyAccess = (permissions: KeyPermissions, access: Partial<KeyAccess>, now: number): KeyAccess => {
  const ipWhitelist = access.ipWhitelist ?? [];
  const tradingExpiresAt =
    access.tradingExpiresAt !== undefined
      ? access.tradingExpiresAt
      : ipWhitelist.length === 0 && permissions.spot
        ? now + UNRESTRICTED_TRADING_MS
        : null;
  return { ipWhitelist: [...ipWhitelist], tradingExpiresAt };
};

/** Whether the key may trade spot now: the permission is on and its term (if any) has not ended. */
export const canTradeNow = (key: ApiKeyRecord, now = Date.now()): boolean =>
  key.permissions.spot && (key.tradingExpiresAt === null || now < key.tradingExpiresAt);

/** The account's uid as Binance reports it on GET /api/v3/account (a 9-digit number). */
export const accountUid = (accountId: number): number => 100_000_000 + accountId;

/**
 * A passphrase as OKX asks of sub-account keys (8–32 characters with a digit, an upper- and a
 * lower-case letter and a sign, docs/venues/okx.md#keys): 24 random ones with a fixed tail.
 */
const randomPassphrase = (): string =>
  `${randomBytes(24)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 20)}Ok9!`;

/** Binance keys and secrets are 64 alphanumeric characters. */
const randomKey = (): string =>
  randomBytes(48)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 64)
    .padEnd(64, 'x');

const DEFAULT_PERMISSIONS: KeyPermissions = { spot: true, withdrawals: false };

/** Accounts, their API keys and balances (free and locked per asset). */
export class AccountBook {
  private readonly accounts = new Map<number, Account>();
  private readonly keys = new Map<string, ApiKeyRecord>();
  private nextId = 1;

  createAccount(input: NewAccount = {}): { accountId: number } & NewKeyCredentials {
    const account: Account = {
      id: this.nextId++,
      holdings: new Map(),
      updatedAt: Date.now(),
      bnbBurn: input.bnbBurn ?? false,
    };
    this.accounts.set(account.id, account);
    this.setBalances(account.id, input.balances ?? {});
    const key = this.addKey(
      account.id,
      input.permissions,
      input.apiKey,
      input.secret,
      {
        ...(input.ipWhitelist ? { ipWhitelist: input.ipWhitelist } : {}),
        ...(input.tradingExpiresAt !== undefined ? { tradingExpiresAt: input.tradingExpiresAt } : {}),
      },
      input.passphrase,
    );
    if (input.bybitClassic) key.bybitClassic = true;
    return { accountId: account.id, apiKey: key.apiKey, secret: key.secret, passphrase: key.passphrase! };
  }

  addKey(
    accountId: number,
    permissions: Partial<KeyPermissions> = {},
    apiKey?: string,
    secret?: string,
    access: Partial<KeyAccess> = {},
    passphrase?: string,
  ) {
    this.account(accountId);
    const granted = { ...DEFAULT_PERMISSIONS, ...permissions };
    const now = Date.now();
    const record: ApiKeyRecord = {
      apiKey: apiKey ?? randomKey(),
      secret: secret ?? randomKey(),
      passphrase: passphrase ?? randomPassphrase(),
      accountId,
      permissions: granted,
      createdAt: now,
      ...newKeyAccess(granted, access, now),
    };
    if (this.keys.has(record.apiKey)) throw new Error('this API key already exists');
    this.keys.set(record.apiKey, record);
    return record;
  }

  key(apiKey: string): ApiKeyRecord | undefined {
    return this.keys.get(apiKey);
  }

  keyOrThrow(apiKey: string): ApiKeyRecord {
    const record = this.keys.get(apiKey);
    if (!record) throw new Error(`unknown API key ${apiKey}`);
    return record;
  }

  setPermissions(apiKey: string, permissions: Partial<KeyPermissions>): KeyPermissions {
    const record = this.keyOrThrow(apiKey);
    record.permissions = { ...record.permissions, ...permissions };
    return record.permissions;
  }

  /**
   * Changes a key's IP whitelist and/or trading term. Whitelisting IPs ends the term unless one is
   * given (Binance: a restricted key's trading does not expire).
   */
  setAccess(apiKey: string, access: Partial<KeyAccess>): KeyAccess {
    const record = this.keyOrThrow(apiKey);
    if (access.ipWhitelist !== undefined) record.ipWhitelist = [...access.ipWhitelist];
    if (access.tradingExpiresAt !== undefined) record.tradingExpiresAt = access.tradingExpiresAt;
    else if (access.ipWhitelist !== undefined && access.ipWhitelist.length > 0)
      record.tradingExpiresAt = null;
    return { ipWhitelist: [...record.ipWhitelist], tradingExpiresAt: record.tradingExpiresAt };
  }

  account(accountId: number): Account {
    const account = this.accounts.get(accountId);
    if (!account) throw new Error(`unknown account ${accountId}`);
    return account;
  }

  /** Turns paying fees in BNB on or off (Binance: POST /sapi/v1/bnbBurn `spotBNBBurn`). */
  setBnbBurn(accountId: number, on: boolean): void {
    this.account(accountId).bnbBurn = on;
    this.touch(accountId);
  }

  paysFeesInBnb(accountId: number): boolean {
    return this.account(accountId).bnbBurn;
  }

  /** Sets the free amount of each listed asset; locked amounts (resting orders) stay as they are. */
  setBalances(accountId: number, balances: Record<string, string>): void {
    for (const [asset, amount] of Object.entries(balances)) {
      const value = new Dec(amount);
      if (!value.isFinite() || value.isNeg()) throw new Error(`balance of ${asset} must be ≥ 0`);
      this.holding(accountId, asset).free = value;
    }
    this.touch(accountId);
  }

  holding(accountId: number, asset: string): Holding {
    const account = this.account(accountId);
    const key = asset.toUpperCase();
    let holding = account.holdings.get(key);
    if (!holding) {
      holding = { free: ZERO, locked: ZERO };
      account.holdings.set(key, holding);
    }
    return holding;
  }

  /** Moves `amount` from free to locked; Binance's -2010 when free is short. */
  lock(accountId: number, asset: string, amount: Decimal): void {
    const holding = this.holding(accountId, asset);
    if (holding.free.lt(amount)) throw refuse({ kind: 'insufficientBalance' });
    holding.free = holding.free.sub(amount);
    holding.locked = holding.locked.add(amount);
    this.touch(accountId);
  }

  unlock(accountId: number, asset: string, amount: Decimal): void {
    const holding = this.holding(accountId, asset);
    const released = Dec.min(amount, holding.locked);
    holding.locked = holding.locked.sub(released);
    holding.free = holding.free.add(released);
    this.touch(accountId);
  }

  /** Spends from the locked part (a resting order filling). */
  spendLocked(accountId: number, asset: string, amount: Decimal): void {
    const holding = this.holding(accountId, asset);
    if (holding.locked.lt(amount)) throw new Error(`locked ${asset} is short: a sandbox bookkeeping bug`);
    holding.locked = holding.locked.sub(amount);
    this.touch(accountId);
  }

  spendFree(accountId: number, asset: string, amount: Decimal): void {
    const holding = this.holding(accountId, asset);
    if (holding.free.lt(amount)) throw refuse({ kind: 'insufficientBalance' });
    holding.free = holding.free.sub(amount);
    this.touch(accountId);
  }

  credit(accountId: number, asset: string, amount: Decimal): void {
    const holding = this.holding(accountId, asset);
    holding.free = holding.free.add(amount);
    this.touch(accountId);
  }

  balances(accountId: number): BalanceView[] {
    return [...this.account(accountId).holdings.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([asset, h]) => ({ asset, free: fmt8(h.free), locked: fmt8(h.locked) }));
  }

  hasKey(apiKey: string): boolean {
    return this.keys.has(apiKey);
  }

  save(): SavedAccounts {
    return {
      nextId: this.nextId,
      accounts: [...this.accounts.values()].map((a) => ({
        id: a.id,
        updatedAt: a.updatedAt,
        bnbBurn: a.bnbBurn,
        holdings: Object.fromEntries(
          [...a.holdings].map(([asset, h]) => [
            asset,
            { free: h.free.toFixed(), locked: h.locked.toFixed() },
          ]),
        ),
      })),
      keys: [...this.keys.values()].map((k) => ({
        ...k,
        permissions: { ...k.permissions },
        ipWhitelist: [...k.ipWhitelist],
      })),
    };
  }

  /** Replaces every account and key with saved ones; ids continue after the highest saved one. */
  load(saved: SavedAccounts): void {
    this.accounts.clear();
    this.keys.clear();
    for (const a of saved.accounts) {
      const holdings = new Map<string, Holding>();
      for (const [asset, h] of Object.entries(a.holdings)) {
        holdings.set(asset, { free: new Dec(h.free), locked: new Dec(h.locked) });
      }
      this.accounts.set(a.id, { id: a.id, holdings, updatedAt: a.updatedAt, bnbBurn: a.bnbBurn ?? false });
    }
    for (const k of saved.keys) {
      this.account(k.accountId);
      // Keys saved before IP whitelists existed are unrestricted without a term (as Binance's keys
      // from before its 30-day rule).
      this.keys.set(k.apiKey, {
        ...k,
        permissions: { ...k.permissions },
        ipWhitelist: [...(k.ipWhitelist ?? [])],
        tradingExpiresAt: k.tradingExpiresAt ?? null,
      });
    }
    this.nextId = Math.max(saved.nextId, ...saved.accounts.map((a) => a.id + 1));
  }

  private touch(accountId: number): void {
    this.account(accountId).updatedAt = Date.now();
  }
}
