import {
  addWithdrawAddress,
  editCoinSettings,
  KEY_FORMATS,
  sendInternalTransfer,
  topUpFeeBalance,
  withdrawMoney,
  ZCoinSettingsInput,
} from '@gridbot/contracts';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { apiKeyProblem, passphraseProblem, secretKeyProblem } from '../src/forms/api-key-form';
import {
  fieldsOfRefusal,
  isAboveExchangeOrderLimit,
  isBelowExchangeMin,
  type SettingsDraft,
  settingsBody,
  settingsProblems,
} from '../src/forms/coin-settings-form';
import { type Problem, wireText } from '../src/forms/validation';
import {
  recipientProblem,
  topUpAmountProblem,
  transferAmountProblem,
  withdrawAddressProblem,
  withdrawAmountProblem,
} from '../src/forms/wallet-forms';

/** More than anyone holds: the table is about the contract, not the balance on screen. */
const PLENTY = '1000000000';

type Row = readonly [typed: string, problem: Problem | null];

/**
 * Each row: what a person types, and the message the form shows (null: the form sends it). The
 * server's verdict on what the form would send must be the same: accepted exactly when the form
 * has no problem.
 */
const agree = (
  label: string,
  schema: z.ZodType,
  form: (typed: string) => Problem | null,
  rows: readonly Row[],
  wire: (typed: string) => unknown = (typed) => wireText(typed, { decimal: true }),
) =>
  describe(label, () => {
    it.each(rows)('%j → %j', (typed, problem) => {
      expect(form(typed)).toEqual(problem);
      expect(schema.safeParse(wire(typed)).success).toBe(problem === null);
    });
  });

const fields = ZCoinSettingsInput.shape;
const DEFAULTS: SettingsDraft = {
  orderSize: '10',
  stepPct: '1',
  stepIncreasePct: '0.1',
  maxTrades: '10',
  dry: false,
};
const settingsField = (field: keyof Omit<SettingsDraft, 'dry'>) => (typed: string) =>
  settingsProblems('BTC', { ...DEFAULTS, [field]: typed })[field];

agree('order size, USDT (edit settings)', fields.orderSize, settingsField('orderSize'), [
  ['', { key: 'required' }],
  ['abc', { key: 'numeric' }],
  ['1e3', { key: 'numeric' }],
  ['-1', { key: 'decimal' }],
  ['.5', { key: 'decimal' }],
  ['5.999999', { key: 'min', params: { min: '6' } }],
  ['6', null],
  ['6,5', null],
  [' 7 ', null],
  ['10.123456', null],
  ['10.1234567', { key: 'maxDecimals', params: { count: 6 } }],
  ['100000', null],
  ['100000.01', { key: 'max', params: { max: '100000' } }],
]);

agree('step, % (edit settings)', fields.stepPct, settingsField('stepPct'), [
  ['0.4999', { key: 'min', params: { min: '0.5' } }],
  ['0.5', null],
  ['1,25', null],
  ['1.12345', { key: 'maxDecimals', params: { count: 4 } }],
  ['10', null],
  ['10.0001', { key: 'max', params: { max: '10' } }],
]);

agree('step increase, % (edit settings)', fields.stepIncreasePct, settingsField('stepIncreasePct'), [
  ['0', null],
  ['10', null],
  ['10.5', { key: 'max', params: { max: '10' } }],
]);

agree(
  'maximum trades (edit settings, a JSON number)',
  fields.maxTrades,
  settingsField('maxTrades'),
  [
    ['0', { key: 'min', params: { min: '1' } }],
    ['1', null],
    ['300', null],
    ['301', { key: 'max', params: { max: '300' } }],
    ['1.5', { key: 'integer' }],
    ['abc', { key: 'numeric' }],
    ['0x10', { key: 'numeric' }],
    ['10 ', null],
  ],
  (typed) => settingsBody('BTC', { ...DEFAULTS, maxTrades: typed }, false).maxTrades,
);

describe('the settings body as a whole (cross-field rule of the contract)', () => {
  it.each([
    [
      { stepPct: '10', stepIncreasePct: '10', maxTrades: '300' },
      { key: 'deepestStep', params: { max: '100' } },
    ],
    [{ stepPct: '10', stepIncreasePct: '0,3', maxTrades: '300' }, null],
    [
      { stepPct: '2', stepIncreasePct: '1', maxTrades: '100' },
      { key: 'deepestStep', params: { max: '100' } },
    ],
    [{ stepPct: '1', stepIncreasePct: '1', maxTrades: '99' }, null],
  ] as const)('%j → %j', (patch, problem) => {
    const draft = { ...DEFAULTS, ...patch };
    expect(settingsProblems('BTC', draft).stepIncreasePct).toEqual(problem);
    expect(editCoinSettings.body.safeParse(settingsBody('BTC', draft, false)).success).toBe(problem === null);
  });
});

agree('withdrawal amount', withdrawMoney.query.shape.summ, (typed) => withdrawAmountProblem(typed, PLENTY), [
  ['', { key: 'required' }],
  ['10.999999', { key: 'min', params: { min: '11' } }],
  ['11', null],
  ['11,5', null],
  ['11.1234567', { key: 'maxDecimals', params: { count: 6 } }],
  ['eleven', { key: 'numeric' }],
]);

agree('fee balance top-up', topUpFeeBalance.query.shape.summ, (typed) => topUpAmountProblem(typed, PLENTY), [
  ['0.999999', { key: 'min', params: { min: '1' } }],
  ['1', null],
  ['2,25', null],
]);

agree(
  'transfer amount',
  sendInternalTransfer.query.shape.summ,
  (typed) => transferAmountProblem(typed, undefined),
  [
    ['0.5', { key: 'min', params: { min: '1' } }],
    ['1', null],
    ['+1', { key: 'decimal' }],
  ],
);

agree(
  'transfer recipient UID (a query parameter read strictly: digits only)',
  sendInternalTransfer.query.shape.to_user,
  (typed) => recipientProblem(typed, 42),
  [
    ['', { key: 'required' }],
    ['0', { key: 'uid' }],
    ['-5', { key: 'uid' }],
    ['1.5', { key: 'uid' }],
    ['abc', { key: 'uid' }],
    ['0x186bc', { key: 'uid' }],
    ['1e5', { key: 'uid' }],
    ['+100003', { key: 'uid' }],
    ['100003.0', { key: 'uid' }],
    ['2147483648', { key: 'max', params: { max: '2147483647' } }],
    ['43', null],
    [' 43 ', null],
  ],
  (typed) => typed.trim(),
);

agree(
  'withdrawal address',
  addWithdrawAddress.query.shape.address,
  withdrawAddressProblem,
  [
    ['', { code: 'WITHDRAW_ADDRESS_MISSING' }],
    ['0x123', { code: 'WITHDRAW_ADDRESS_FORMAT' }],
    ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6', { code: 'WITHDRAW_ADDRESS_FORMAT' }],
    ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', null],
    [' TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t ', null],
  ],
  (typed) => typed.trim(),
);

agree(
  'API key (docs/product.md#validation text rules)',
  KEY_FORMATS.binance.apiKey,
  apiKeyProblem,
  [
    ['', { key: 'required' }],
    ['a'.repeat(49), { key: 'minLength', params: { count: 50 } }],
    ['a'.repeat(101), { key: 'maxLength', params: { count: 100 } }],
    [`${'a'.repeat(49)}-x`, { key: 'alphanumeric' }],
    ['aB3'.repeat(20), null],
  ],
  (typed) => typed.trim(),
);

agree(
  "OKX API key (a UUID, the venue's format)",
  KEY_FORMATS.okx.apiKey,
  (typed) => apiKeyProblem(typed, 'okx'),
  [
    ['', { key: 'required' }],
    ['a'.repeat(64), { key: 'okxApiKey' }],
    ['0f3a9c1e-8b2d-4e6f-9a7b-1c2d3e4f5a6b', null],
  ],
  (typed) => typed.trim(),
);

agree(
  'OKX secret key (32 hexadecimal digits)',
  KEY_FORMATS.okx.secretKey,
  (typed) => secretKeyProblem(typed, 'okx'),
  [
    ['0123456789ABCDEF0123456789ABCDEG', { key: 'okxSecret' }],
    ['0123456789ABCDEF0123456789ABCDEF', null],
  ],
  (typed) => typed.trim(),
);

agree(
  'OKX passphrase (printable, no spaces, at most 32)',
  KEY_FORMATS.okx.passphrase,
  (typed) => passphraseProblem(typed, 'okx'),
  [
    ['two words', { key: 'printable' }],
    ['x'.repeat(33), { key: 'maxLength', params: { count: 32 } }],
    ['Grid-Pass9!', null],
  ],
  (typed) => typed,
);

describe('checks only the client can make, on top of the contract', () => {
  it("refuses more than the balance shown, exactly, with the server's 'insufficient balance' text", () => {
    const insufficient = { code: 'INSUFFICIENT_FUNDS' };
    expect(withdrawAmountProblem('100.000001', '100')).toEqual(insufficient);
    expect(withdrawAmountProblem('100', '100')).toBeNull();
    expect(topUpAmountProblem('5,5', '5.49')).toEqual(insufficient);
    expect(transferAmountProblem('2', '1.5')).toEqual(insufficient);
  });

  it("refuses an order size below the market's minimum on the exchange, exactly, decimal comma too", () => {
    expect(isBelowExchangeMin({ ...DEFAULTS, orderSize: '9.99' }, '10')).toBe(true);
    expect(isBelowExchangeMin({ ...DEFAULTS, orderSize: '9,999999' }, '10')).toBe(true);
    expect(isBelowExchangeMin({ ...DEFAULTS, orderSize: '10' }, '10')).toBe(false);
    // Unknown minimum or a malformed size: the contract's own checks speak.
    expect(isBelowExchangeMin({ ...DEFAULTS, orderSize: '1' }, null)).toBe(false);
    expect(isBelowExchangeMin({ ...DEFAULTS, orderSize: 'abc' }, '10')).toBe(false);
  });

  it("refuses a purchase limit above the market's open-order limit (MAX_NUM_ORDERS)", () => {
    expect(isAboveExchangeOrderLimit({ ...DEFAULTS, maxTrades: '250' }, 200)).toBe(true);
    expect(isAboveExchangeOrderLimit({ ...DEFAULTS, maxTrades: '200' }, 200)).toBe(false);
    // Unknown limit or a malformed number: the contract's own checks speak.
    expect(isAboveExchangeOrderLimit({ ...DEFAULTS, maxTrades: '250' }, null)).toBe(false);
    expect(isAboveExchangeOrderLimit({ ...DEFAULTS, maxTrades: 'x' }, 200)).toBe(false);
  });

  it("puts the API's settings refusals under the field they are about", () => {
    const same = (code: string) => fieldsOfRefusal(code, DEFAULTS, DEFAULTS);
    expect(same('ORDER_BELOW_EXCHANGE_MIN')).toEqual(['orderSize']);
    expect(same('MAX_TRADES_ABOVE_EXCHANGE_LIMIT')).toEqual(['maxTrades']);
    expect(same('DEEPEST_BUY_BELOW_EXCHANGE_PRICE_LIMIT')).toEqual(['stepIncreasePct']);
    expect(same('EXCHANGE_UNAVAILABLE')).toEqual([]);
    expect(same('toString')).toEqual([]);
  });

  it('puts a licence balance limit refusal under what raised the capital: the purchase limit too', () => {
    const limit = (draft: Partial<typeof DEFAULTS>) =>
      fieldsOfRefusal('LICENSE_BALANCE_LIMIT', { ...DEFAULTS, ...draft }, DEFAULTS);
    expect(limit({ maxTrades: String(Number(DEFAULTS.maxTrades) + 5) })).toEqual(['maxTrades']);
    expect(limit({ orderSize: '500' })).toEqual(['orderSize']);
    expect(limit({ orderSize: '500,5', maxTrades: '99' })).toEqual(['orderSize', 'maxTrades']);
    // Lowered, or nothing raised (another coin took the room): under the order size.
    expect(limit({ maxTrades: '1' })).toEqual(['orderSize']);
    expect(limit({})).toEqual(['orderSize']);
  });

  it('refuses a transfer to yourself with the catalogue text', () => {
    expect(recipientProblem('42', 42)).toEqual({ code: 'TRANSFER_TO_SELF' });
    expect(recipientProblem(' 42 ', 42)).toEqual({ code: 'TRANSFER_TO_SELF' });
  });
});
