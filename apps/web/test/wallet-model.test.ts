import type { Transaction } from '@gridbot/contracts';
import { describe, expect, it } from 'vitest';
import { subtractUsdt } from '../src/format/decimal';
import { groupByDay } from '../src/format/group-by-day';
import {
  amountLookOf,
  arrivingDeposits,
  receivesOf,
  shortened,
  tronscanAddressUrl,
  tronscanTransactionUrl,
  withdrawalStepOf,
} from '../src/screens/wallet/wallet-model';
import { QUIET_ZONE, qrMatrix } from '../src/ui/qr-matrix';

const ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

const entry = (patch: Partial<Transaction>): Transaction => ({
  id: 'x',
  type: 'deposit',
  status: 'credited',
  balance: 'main',
  amount: '12',
  networkFee: null,
  txid: null,
  address: null,
  counterparty: null,
  note: null,
  reason: null,
  createdAt: '2025-03-14T09:30:00.000Z',
  updatedAt: '2025-03-14T09:30:00.000Z',
  ...patch,
});

describe('withdrawal figures, exact to the micro-USDT', () => {
  it.each([
    ['11', '1', '10'],
    ['12.345678', '1', '11.345678'],
    ['0.000001', '0.000001', '0'],
    ['100', '0.5', '99.5'],
    ['1', '1.000001', '-0.000001'],
  ])('%s − %s = %s', (a, b, difference) => {
    expect(subtractUsdt(a, b)).toBe(difference);
  });

  it('says what arrives after the network fee, and nothing when the fee eats it all', () => {
    expect(receivesOf('50', '1')).toBe('49');
    expect(receivesOf('11.000001', '1')).toBe('10.000001');
    expect(receivesOf('1', '1')).toBeNull();
    expect(receivesOf('0.5', '1')).toBeNull();
  });
});

describe('hashes on screen', () => {
  it('keeps both ends of an address or txid', () => {
    expect(shortened(ADDRESS)).toBe('TLa2f6…5wYjU7');
    expect(shortened(ADDRESS, 8, 8)).toBe('TLa2f6VP…ay5wYjU7');
    expect(shortened('T123')).toBe('T123');
  });

  it('links to the TRON explorer', () => {
    expect(tronscanTransactionUrl('a3f1')).toBe('https://tronscan.org/#/transaction/a3f1');
    expect(tronscanAddressUrl(ADDRESS)).toBe(`https://tronscan.org/#/address/${ADDRESS}`);
  });
});

describe('transaction list', () => {
  it('colours money by what happened to it', () => {
    expect(amountLookOf(entry({ amount: '12', status: 'credited' }))).toBe('credit');
    expect(amountLookOf(entry({ amount: '12', status: 'pending' }))).toBe('pending');
    expect(amountLookOf(entry({ amount: '5', status: 'not_credited' }))).toBe('void');
    // Under the minimum: waiting for more deposits under the minimum, not lost.
    expect(amountLookOf(entry({ amount: '5', status: 'not_credited', reason: 'below_minimum' }))).toBe(
      'pending',
    );
    expect(amountLookOf(entry({ type: 'withdraw', amount: '-40', status: 'failed' }))).toBe('void');
    expect(amountLookOf(entry({ type: 'withdraw', amount: '-40', status: 'pending' }))).toBe('debit');
    expect(amountLookOf(entry({ type: 'trade_fee', amount: '-0.42', status: 'confirmed' }))).toBe('debit');
  });

  it('finds the deposits still on their way, those under the minimum waiting for more among them', () => {
    const list = [
      entry({ id: 'a', status: 'pending' }),
      entry({ id: 'b', status: 'credited' }),
      entry({ id: 'c', type: 'withdraw', status: 'pending', amount: '-20' }),
      entry({ id: 'd', status: 'not_credited', amount: '5', reason: 'below_minimum' }),
      entry({ id: 'e', status: 'credited', amount: '12', reason: 'below_minimum_combined' }),
    ];
    expect(arrivingDeposits(list).map((item) => item.id)).toEqual(['a', 'd']);
  });

  it('groups consecutive entries of one UTC day, the PnL day (docs/pnl.md#days-and-times), newest first', () => {
    const at = (day: number, hour: number, minute = 0) =>
      new Date(Date.UTC(2025, 2, day, hour, minute)).toISOString();
    const groups = groupByDay(
      [
        { id: 1, at: at(14, 18) },
        { id: 2, at: at(14, 1) },
        { id: 3, at: at(13, 23, 30) },
        { id: 4, at: at(10, 12) },
      ],
      (item) => item.at,
    );
    expect(groups.map((group) => group.items.map((item) => item.id))).toEqual([[1, 2], [3], [4]]);
    expect(groups.map((group) => group.day)).toEqual(['2025-03-14', '2025-03-13', '2025-03-10']);
  });

  it('places a withdrawal on its way; refusals are off the line', () => {
    expect(
      ['pending', 'approved', 'broadcast', 'confirmed'].map((s) => withdrawalStepOf(s as 'pending')),
    ).toEqual([0, 1, 2, 3]);
    expect(withdrawalStepOf('rejected')).toBe(-1);
  });
});

describe('deposit QR code', () => {
  it('draws every dark module once, inside a 4-module quiet zone', () => {
    const qr = qrMatrix(ADDRESS);
    // 34 characters at error correction H need version 4: 33 modules a side.
    expect(qr.size).toBe(33 + 2 * QUIET_ZONE);
    const widths = [...qr.path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)].map((run) => {
      const [x, y, width] = [Number(run[1]), Number(run[2]), Number(run[3])];
      expect(x).toBeGreaterThanOrEqual(QUIET_ZONE);
      expect(y).toBeGreaterThanOrEqual(QUIET_ZONE);
      expect(x + width).toBeLessThanOrEqual(qr.size - QUIET_ZONE);
      return width;
    });
    expect(widths.reduce((sum, width) => sum + width, 0)).toBe(qr.dark);
    // The top-left finder pattern: a full dark row of 7 modules at the corner.
    expect(qr.path.startsWith(`M${QUIET_ZONE} ${QUIET_ZONE}h7v1h-7z`)).toBe(true);
  });

  it('encodes different addresses differently', () => {
    expect(qrMatrix(ADDRESS).path).not.toBe(qrMatrix('TXYZ1234567890abcdefghijkLMNopqRST').path);
  });
});
