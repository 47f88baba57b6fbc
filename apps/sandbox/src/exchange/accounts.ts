import { randomBytes } from 'node:crypto';
import type { Decimal } from 'decimal.js';
import { binanceErrors } from './binance-error';
import { Dec, fmt8, ZERO } from './money';

/** What a key may do, as Binance's GET /sapi/v1/account/apiRestrictions reports it. */
export type KeyPermissions = { spot: boolean; withdrawals: boolean };

export type ApiKeyRecord = {
  apiKey: string;
  secret: string;
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
  keys: ApiKeyRecord[];
};

export type NewAccount = {
  balances?: Record<string, string>;
  permissions?: Partial<KeyPermissions>;
  /** Pay trading fees in BNB at Binance's discount while the BNB balance suffices (default false). */
  bnbBurn?: boolean;
  /** Fixed credentials (the demo seeds known keys); random ones otherwise. */
  apiKey?: string;
  secret?: string;
};

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

  createAccount(input: NewAccount = {}): { accountId: number; apiKey: string; secret: string } {
    const account: Account = {
      id: this.nextId++,
      holdings: new Map(),
      updatedAt: Date.now(),
      bnbBurn: input.bnbBurn ?? false,
    };
    this.accounts.set(account.id, account);
    this.setBalances(account.id, input.balances ?? {});
    const key = this.addKey(account.id, input.permissions, input.apiKey, input.secret);
    return { accountId: account.id, apiKey: key.apiKey, secret: key.secret };
  }

  addKey(accountId: number, permissions: Partial<KeyPermissions> = {}, apiKey?: string, secret?: string) {
    this.account(accountId);
    const record: ApiKeyRecord = {
      apiKey: apiKey ?? randomKey(),
      secret: secret ?? randomKey(),
      accountId,
      permissions: { ...DEFAULT_PERMISSIONS, ...permissions },
      createdAt: Date.now(),
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
    if (holding.free.lt(amount)) throw binanceErrors.insufficientBalance();
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
    if (holding.free.lt(amount)) throw binanceErrors.insufficientBalance();
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
      keys: [...this.keys.values()].map((k) => ({ ...k, permissions: { ...k.permissions } })),
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
      this.keys.set(k.apiKey, { ...k, permissions: { ...k.permissions } });
    }
    this.nextId = Math.max(saved.nextId, ...saved.accounts.map((a) => a.id + 1));
  }

  private touch(accountId: number): void {
    this.account(accountId).updatedAt = Date.now();
  }
}
