import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  compareDecimal,
  configValueSchema,
  deepestStepPct,
  type EndpointDefinition,
  editCoinSettings,
  endpoints,
  endpointsById,
  errorCatalogue,
  findRecipient,
  getPartnerProfile,
  getRewards,
  getStructure,
  getWallet,
  listCoinActivity,
  listCoinTrades,
  listMyPartners,
  saveApiKey,
  setDryAll,
  startTrading,
  updateNotifications,
  withdrawMoney,
  ZCoinName,
  ZTransactionType,
  ZTronAddress,
  ZUsdt,
} from '../src/index';

/**
 * Every call of docs/product.md#calls, written as the spec writes it, plus the sign-in and demo calls.
 * `rate` is docs/product.md#limits's limit in ms per call.
 */
const specCalls: readonly { call: string; rate?: number }[] = [
  // Panel and portfolio
  { call: 'POST /home/', rate: 2000 },
  { call: 'POST /portfolio/{x}' },
  { call: 'GET /portfolio/add_coin' },
  { call: 'POST /portfolio/' },
  { call: 'POST /portfolio/add_coin/add?data_send=' },
  { call: 'POST /portfolio/setting/delete?data_send=' },
  { call: 'POST /portfolio/setting/edit' },
  { call: 'POST /portfolio/setting/reset_setting' },
  { call: 'POST /home/start' },
  { call: 'POST /home/pause' },
  { call: 'GET /portfolio/profit?user_id=' },
  { call: 'POST /portfolio/trades?coin_user_id=', rate: 1000 },
  { call: 'GET /portfolio/activity?coin_user_id=&cursor=' },
  { call: 'GET /home/check_keys' },
  { call: 'GET /portfolio/dry_coins?status=' },
  { call: 'GET /portfolio/set_coin_status?coin_name=&status=' },
  { call: 'GET /portfolio/activate_coins?status=' },
  { call: 'GET /home/coin_rating?date=' },
  { call: 'GET /home/pnl/daily?page=' },
  { call: 'GET /home/pnl/monthly?page=' },
  { call: 'GET /home/pnl_daily_coins?target_date=' },
  // Config
  { call: 'GET /home/config/{name}/get' },
  { call: 'POST /home/config/{name}/set?data=' },
  // Partners
  { call: 'GET /partners/' },
  { call: 'POST /partners/my_partners/{period}' },
  { call: 'POST /partners/my_rewards?period=' },
  { call: 'POST /partners/my_partners/structure?required_id=' },
  { call: 'POST /partners/my_partners/profile?required_id=', rate: 1500 },
  { call: 'POST /partners/referral_bonus/detail?date=' },
  { call: 'POST /partners/matching_bonus/detail?date=' },
  { call: 'POST /partners/referral_bonus/history?page=&limit=' },
  { call: 'POST /partners/matching_bonus/history?page=&limit=' },
  { call: 'POST /partners/network_expansion/detail', rate: 1500 },
  { call: 'POST /partners/link', rate: 1500 },
  // Wallet
  { call: 'POST /wallet?days=&page=&limit=', rate: 2000 },
  { call: 'POST /wallet/add_money' },
  { call: 'POST /wallet/create_wallet' },
  { call: 'POST /wallet/add_withdraw_address?address=', rate: 1500 },
  { call: 'POST /wallet/update_withdraw_address?address=', rate: 1500 },
  { call: 'POST /wallet/withdraw_money?summ=' },
  { call: 'POST /wallet/inner_transaction?summ=&to_user=' },
  { call: 'POST /wallet/get_address', rate: 1500 },
  // Profile
  { call: 'POST /profile/' },
  { call: 'POST /profile/update_licence' },
  { call: 'POST /profile/renew_license' },
  { call: 'POST /profile/api_key' },
  { call: 'POST /profile/notificate', rate: 1000 },
  // Sign-in and demo
  { call: 'POST /auth/login' },
  { call: 'POST /auth/telegram' },
  { call: 'GET /demo/launch-data' },
  // The installation's public settings (docs/product.md#calls): the support link.
  { call: 'GET /config' },
];

/**
 * Calls beyond docs/product.md#calls, each documented where it lives (docs/grid.md#what-if-backtest,
 * docs/grid.md#coin-chart, docs/wallet.md#internal-transfer, docs/wallet.md#freeze,
 * docs/security.md#sessions, docs/grid.md#deal-controls).
 */
const BEYOND_SPEC: { call: string; rate: number }[] = [
  { call: 'POST /portfolio/backtest', rate: 3000 },
  { call: 'GET /portfolio/chart?coin=&range=', rate: 1000 },
  // docs/wallet.md#internal-transfer: who a UID is, shown before the transfer is confirmed.
  { call: 'POST /wallet/recipient?uid=', rate: 1000 },
  // docs/wallet.md#freeze: "this wasn't me", and lifting it a lock time later.
  { call: 'POST /wallet/freeze', rate: 1000 },
  { call: 'POST /wallet/unfreeze', rate: 1000 },
  // docs/security.md#sessions: "sign out on all devices".
  { call: 'POST /auth/logout_all', rate: 5000 },
  // docs/product.md#exports: CSV files of the deals, PnL by day and the wallet, and their links.
  { call: 'POST /export/link', rate: 1000 },
  { call: 'GET /export/deals.csv?coin_user_id=', rate: 3000 },
  { call: 'GET /export/pnl_daily.csv?by=', rate: 3000 },
  { call: 'GET /export/wallet.csv?type=', rate: 3000 },
  { call: 'GET /export/download.csv?token=', rate: 1000 },
  // docs/grid.md#deal-controls: sell a deal now, close all, cancel the pending buy; their state and quote.
  { call: 'POST /portfolio/deals/sell?coin_user_id=&lot=', rate: 1000 },
  { call: 'POST /portfolio/deals/close_all?coin_user_id=', rate: 1000 },
  { call: 'POST /portfolio/deals/cancel_buy?coin_user_id=', rate: 1000 },
  { call: 'GET /portfolio/deals/commands?coin_user_id=', rate: 1000 },
  { call: 'GET /portfolio/deals/quote?coin_user_id=&lot=', rate: 1000 },
];

/** The list widened to the common shape, for checks over all contracts. */
const contracts: readonly EndpointDefinition[] = endpoints;

const PUBLIC_CALLS = [
  'POST /auth/login',
  'POST /auth/telegram',
  'GET /demo/launch-data',
  'GET /config',
  // docs/security.md#download-links: the signed link is its own credential.
  'GET /export/download.csv',
];

/** `POST /portfolio/{x}?a=` and `POST /portfolio/:coin` both become `POST /portfolio/:`. */
const routeKey = (call: string) =>
  call
    .split('?')[0]!
    .replace(/\{[^}]+\}/g, ':')
    .replace(/:[A-Za-z_]+/g, ':');
const queryNames = (call: string) =>
  (call.split('?')[1] ?? '')
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=')[0]!);
const keyOf = (endpoint: EndpointDefinition) => routeKey(`${endpoint.method} ${endpoint.path}`);
const shapeKeys = (schema: z.ZodObject | undefined) => Object.keys(schema?.shape ?? {});
const find = (call: string) => contracts.filter((endpoint) => keyOf(endpoint) === routeKey(call));
const sortedKeys = (record: object) => Object.keys(record).sort();

describe('the contract list covers docs/product.md#calls', () => {
  it.each(specCalls.map((c) => [c.call]))('%s is defined exactly once', (call) => {
    expect(find(call)).toHaveLength(1);
  });

  it('defines no endpoint the spec does not list, beyond the documented additions', () => {
    const specKeys = new Set([...specCalls, ...BEYOND_SPEC].map((c) => routeKey(c.call)));
    expect(contracts.map(keyOf).filter((key) => !specKeys.has(key))).toEqual([]);
    expect(endpoints).toHaveLength(specCalls.length + BEYOND_SPEC.length);
  });

  it.each(BEYOND_SPEC.map((c) => [c.call, c.rate]))(
    '%s (beyond the spec) is defined once, 1 per %s ms',
    (call, rate) => {
      const [endpoint, ...others] = find(call);
      expect(others).toEqual([]);
      expect(endpoint?.rateLimit).toEqual({ max: 1, windowMs: rate });
      expect(endpoint?.errors).toHaveProperty('429');
    },
  );

  it.each(specCalls.filter((c) => queryNames(c.call).length > 0).map((c) => [c.call]))(
    '%s takes the spec query names',
    (call) => {
      const [endpoint] = find(call);
      expect(shapeKeys(endpoint?.query)).toEqual(expect.arrayContaining(queryNames(call)));
    },
  );

  it('keeps the spec trailing slashes', () => {
    const paths = endpoints.map((endpoint) => endpoint.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/home/', '/portfolio/', '/partners/', '/profile/', '/wallet']),
    );
  });

  it('declares a params schema with exactly the path parameters', () => {
    for (const endpoint of contracts) {
      const names = [...endpoint.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
      expect(shapeKeys(endpoint.params), endpoint.id).toEqual(names);
    }
  });
});

describe('endpoint metadata', () => {
  it('has unique ids of the form area.name, indexed by endpointsById', () => {
    const ids = endpoints.map((endpoint) => endpoint.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+\.[a-z][A-Za-z]+$/);
    expect(sortedKeys(endpointsById)).toEqual([...ids].sort());
    expect(endpointsById['wallet.getWallet']).toBe(getWallet);
  });

  it('requires auth everywhere except sign-in and demo, and every auth endpoint documents 401', () => {
    const publicKeys = contracts.filter((endpoint) => !endpoint.auth).map(keyOf);
    expect(publicKeys.sort()).toEqual(PUBLIC_CALLS.map(routeKey).sort());
    for (const endpoint of contracts.filter((e) => e.auth)) {
      expect(endpoint.errors, endpoint.id).toHaveProperty('401');
    }
  });

  it('applies exactly the rate limits of docs/product.md#limits, each documenting 429', () => {
    for (const { call, rate } of specCalls) {
      const [endpoint] = find(call);
      const limit = endpoint?.rateLimit;
      expect(limit, call).toEqual(rate === undefined ? undefined : { max: 1, windowMs: rate });
      if (rate !== undefined) expect(endpoint?.errors, call).toHaveProperty('429');
    }
  });

  it('names catalogue codes only under their catalogue status', () => {
    const codes = Object.keys(errorCatalogue) as (keyof typeof errorCatalogue)[];
    for (const endpoint of contracts) {
      for (const [status, text] of Object.entries(endpoint.errors)) {
        const named = codes.filter((code) => new RegExp(`\\b${code}\\b`).test(text ?? ''));
        for (const code of named)
          expect(`${endpoint.id} ${status} ${code}`).toBe(
            `${endpoint.id} ${errorCatalogue[code].status} ${code}`,
          );
      }
    }
  });

  it('converts every request and response schema to JSON Schema for the OpenAPI page', () => {
    for (const endpoint of contracts) {
      for (const part of ['params', 'query', 'headers', 'body'] as const) {
        const schema =
          part in endpoint ? (endpoint as Record<typeof part, z.ZodType | undefined>)[part] : undefined;
        if (schema)
          expect(() => z.toJSONSchema(schema, { io: 'input' }), `${endpoint.id} ${part}`).not.toThrow();
      }
      expect(() => z.toJSONSchema(endpoint.response, { io: 'output' }), endpoint.id).not.toThrow();
    }
  });

  it('has a detail in en, ru and cn for every catalogue code', () => {
    for (const [code, entry] of Object.entries(errorCatalogue)) {
      expect(sortedKeys(entry.detail), code).toEqual(['cn', 'en', 'ru']);
      for (const text of Object.values(entry.detail)) expect(text.length, code).toBeGreaterThan(0);
    }
  });
});

describe('money and numbers on the wire', () => {
  it.each(['0', '11', '11.5', '0.000001', '100000.123456'])('ZUsdt accepts %s', (value) => {
    expect(ZUsdt.safeParse(value).success).toBe(true);
  });

  it.each([[11], [11.5], ['1.1234567'], ['-1'], ['1e3'], [''], ['1.'], [' 1']])(
    'ZUsdt rejects %j',
    (value) => {
      expect(ZUsdt.safeParse(value).success).toBe(false);
    },
  );

  it('reads the Idempotency-Key header of money moves and keeps the other headers', () => {
    const headers = { authorization: 'Bearer x', 'idempotency-key': 'a1b2c3d4-e5f6' };
    expect(withdrawMoney.headers.parse(headers)).toEqual(headers);
    expect(withdrawMoney.headers.parse({ authorization: 'Bearer x' })).toEqual({ authorization: 'Bearer x' });
    expect(withdrawMoney.headers.safeParse({ 'idempotency-key': 'short' }).success).toBe(false);
    expect(withdrawMoney.headers.safeParse({ 'idempotency-key': 'has space in it' }).success).toBe(false);
  });

  it('enforces the 11 USDT minimum withdrawal', () => {
    expect(withdrawMoney.query.safeParse({ summ: '10.999999' }).success).toBe(false);
    expect(withdrawMoney.query.parse({ summ: '11' })).toEqual({ summ: '11', to: 'address' });
  });

  it('compares decimals exactly', () => {
    expect(compareDecimal('0.1', '0.10')).toBe(0);
    expect(compareDecimal('10.5', '9.99')).toBe(1);
    expect(compareDecimal('-0.5', '0')).toBe(-1);
    expect(compareDecimal('100000000000000000000.000001', '100000000000000000000')).toBe(1);
  });

  it('coerces query numbers and applies paging defaults', () => {
    expect(getWallet.query.parse({ page: '2' })).toEqual({ days: 30, page: 2, limit: 10 });
    expect(getWallet.query.safeParse({ limit: '1000' }).success).toBe(false);
    expect(listCoinTrades.query.safeParse({}).success).toBe(false);
  });
});

describe('coin names and settings', () => {
  it('upper-cases coin names', () => {
    expect(ZCoinName.parse(' btc ')).toBe('BTC');
    expect(startTrading.query.parse({})).toEqual({});
    expect(startTrading.query.parse({ coin_name: 'sol' })).toEqual({ coin_name: 'SOL' });
  });

  it.each(['BTC/USDT', 'BTC-USD', '', 'A'.repeat(16), 'ÉTH'])('rejects the coin name %j', (value) => {
    expect(ZCoinName.safeParse(value).success).toBe(false);
  });

  const settings = {
    coin: 'eth',
    orderSize: '10',
    stepPct: '1',
    stepIncreasePct: '0.1',
    maxTrades: 10,
    dry: false,
  };

  it('accepts valid settings as decimal strings and defaults preview to false', () => {
    expect(editCoinSettings.body.parse(settings)).toEqual({ ...settings, coin: 'ETH', preview: false });
  });

  it.each([
    ['orderSize as a number', { orderSize: 10 }],
    ['orderSize below 6 USDT', { orderSize: '5.99' }],
    ['stepPct as a number', { stepPct: 1 }],
    ['stepPct below 0.5', { stepPct: '0.4' }],
    ['stepPct above 10', { stepPct: '10.5' }],
    ['negative stepIncreasePct', { stepIncreasePct: '-0.1' }],
    ['maxTrades 0', { maxTrades: 0 }],
    ['maxTrades 301', { maxTrades: 301 }],
    ['maxTrades 1.5', { maxTrades: 1.5 }],
    ['maxTrades as a string', { maxTrades: '10' }],
    ['a grid deeper than 100 %', { stepPct: '10', stepIncreasePct: '1', maxTrades: 100 }],
  ])('rejects %s', (_, change) => {
    expect(editCoinSettings.body.safeParse({ ...settings, ...change }).success).toBe(false);
  });

  it('computes the deepest step exactly', () => {
    expect(deepestStepPct('1', '0.1', 10)).toBe('1.8');
    expect(deepestStepPct('0.5', '0', 1)).toBe('0.5');
  });

  it('reads on/off switches without treating "false" as true', () => {
    expect(setDryAll.query.parse({ status: 'false' })).toEqual({ status: false });
    expect(setDryAll.query.parse({ status: 'ON' })).toEqual({ status: true });
    expect(setDryAll.query.safeParse({ status: 'maybe' }).success).toBe(false);
  });
});

describe('periods, localization and other inputs', () => {
  it('defaults partner periods to current_month and reward periods to today', () => {
    expect(listMyPartners.params.parse({})).toEqual({ period: 'current_month' });
    expect(listMyPartners.params.parse({ period: '2025-02' })).toEqual({ period: '2025-02' });
    expect(listMyPartners.params.safeParse({ period: '2025-13' }).success).toBe(false);
    expect(getRewards.query.parse({})).toEqual({ period: 'today' });
    expect(getRewards.query.safeParse({ period: 'tomorrow' }).success).toBe(false);
  });

  // Found by the hostile-input fuzz: /partners/my_partners/0000-01 answered 500 (PostgreSQL has no year 0).
  it('refuses days and months before 1970', () => {
    expect(listMyPartners.params.safeParse({ period: '0000-01' }).success).toBe(false);
    expect(listMyPartners.params.safeParse({ period: '1969-12' }).success).toBe(false);
    expect(listMyPartners.params.parse({ period: '1970-01' })).toEqual({ period: '1970-01' });
    expect(getRewards.query.safeParse({ period: '0000-01-01' }).success).toBe(false);
    expect(getRewards.query.safeParse({ period: '0000-01' }).success).toBe(false);
    expect(getRewards.query.parse({ period: '1970-01-01' })).toEqual({ period: '1970-01-01' });
  });

  it('stores the localization value lower-cased and refuses other languages', () => {
    expect(configValueSchema('localization').parse('RU')).toBe('ru');
    expect(configValueSchema('localization').safeParse('de').success).toBe(false);
  });

  it('accepts only TRC20 addresses, with the catalogue message', () => {
    expect(ZTronAddress.parse('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(
      'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    );
    const result = ZTronAddress.safeParse('0x742d35Cc6634C0532925a3b844Bc454e4438f44e');
    expect(result.error?.issues[0]?.message).toBe(errorCatalogue.WITHDRAW_ADDRESS_FORMAT.message);
  });

  // Found by the hostile-input fuzz: a larger id reached PostgreSQL's `integer` columns and answered 500.
  it('refuses ids no row can have: beyond integer for UIDs and coin bots, beyond bigint for cursors', () => {
    for (const [schema, field] of [
      [getPartnerProfile.query, 'required_id'],
      [findRecipient.query, 'uid'],
      [listCoinTrades.query, 'coin_user_id'],
    ] as const) {
      expect(schema.safeParse({ [field]: '2147483647' }).success).toBe(true);
      for (const id of ['2147483648', '9007199254740991']) {
        expect(schema.safeParse({ [field]: id }).success, `${field}=${id}`).toBe(false);
      }
    }
    const activity = (cursor: string) =>
      listCoinActivity.query.safeParse({ coin_user_id: '1', cursor }).success;
    expect(activity('9223372036854775807')).toBe(true);
    expect(activity('9223372036854775808')).toBe(false);
    expect(activity('9999999999999999999')).toBe(false);
  });

  it('applies the spec text rules to API keys', () => {
    const key = 'a1'.repeat(32);
    expect(saveApiKey.body.parse({ apiKey: key, secretKey: key }).exchange).toBe('binance');
    expect(saveApiKey.body.safeParse({ apiKey: key.slice(0, 49), secretKey: key }).success).toBe(false);
    expect(saveApiKey.body.safeParse({ apiKey: `${key.slice(1)}-`, secretKey: key }).success).toBe(false);
  });

  it('refuses unknown notification switches', () => {
    expect(updateNotifications.body.parse(undefined)).toEqual({});
    expect(updateNotifications.body.safeParse({ fils: true }).success).toBe(false);
  });
});

describe('response shapes', () => {
  it('lists exactly the spec transaction types', () => {
    expect(ZTransactionType.options).toEqual([
      'trade_fee',
      'matching_bonus',
      'referral_bonus',
      'deposit_balance',
      'withdraw',
      'withdraw_exchange',
      'transfer_out',
      'transfer_in',
      'license_purchase',
      'deposit',
      'unknown',
    ]);
  });

  const at = '2025-03-01T10:00:00.000Z';
  const transaction = {
    id: 't1',
    type: 'deposit',
    status: 'credited',
    balance: 'main',
    amount: '25.5',
    networkFee: null,
    txid: 'abc',
    address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    counterparty: null,
    note: null,
    reason: null,
    createdAt: at,
    updatedAt: at,
  };
  const wallet = {
    balances: { main: '25.5', fee: '-0.2', held: '0' },
    network: 'TRC20',
    token: 'USDT',
    depositAddress: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
    withdrawAddress: null,
    withdrawAddressUsableFrom: null,
    allowance: { limit: '1000', used: '0', left: '1000' },
    frozen: null,
    releaseDelayS: 120,
    minDeposit: '11',
    minWithdraw: '11',
    withdrawFee: '1',
    pendingWithdrawals: [],
    transactions: { items: [transaction], page: 1, limit: 10, total: 1, hasMore: false, nextCursor: null },
  };

  it('parses a wallet answer with transactions.items and a negative fee balance', () => {
    expect(getWallet.response.parse(wallet).transactions.items[0]?.type).toBe('deposit');
  });

  it('rejects money as a JS number in an answer', () => {
    const bad = { ...wallet, balances: { ...wallet.balances, main: 25.5 } };
    expect(getWallet.response.safeParse(bad).success).toBe(false);
  });

  it('parses a structure answer as an array of nested nodes', () => {
    const node = {
      user_id: 7,
      username: 'ann',
      firstName: 'Ann',
      line: 1,
      licenseLevel: 'PRO1',
      licenseActive: true,
      registeredAt: at,
      directPartners: 1,
      teamSize: 1,
      hasChildren: true,
    };
    const answer = [
      { ...node, children: [{ ...node, user_id: 8, line: 2, hasChildren: false, children: [] }] },
    ];
    expect(getStructure.response.parse(answer)[0]?.children[0]?.user_id).toBe(8);
    expect(getStructure.response.safeParse([{ ...node }]).success).toBe(false);
  });

  it('wraps coin deals in data for data.data', () => {
    const empty = { data: [], page: 1, limit: 50, total: 0, hasMore: false, nextCursor: null };
    expect(listCoinTrades.response.parse(empty).data).toEqual([]);
    expect(listCoinTrades.response.safeParse({ items: [] }).success).toBe(false);
  });
});
