import { describe, expect, it } from 'vitest';
import { TRANSFER_TOPIC, usdtTransfersOf } from '../../src/wallet/chain/usdt-transfers';
import { tronHexOf } from '../../src/wallet/tron-keys';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const FROM = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const TO = 'TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL';
const word = (hex: string) => hex.padStart(64, '0');
const addressTopic = (address: string) => word(tronHexOf(address).slice(2));
const log = (overrides: Partial<{ address: string; topics: string[]; data: string }> = {}) => ({
  address: tronHexOf(USDT).slice(2),
  topics: [TRANSFER_TOPIC, addressTopic(FROM), addressTopic(TO)],
  data: word((11_000_000).toString(16)),
  ...overrides,
});
const info = (logs: ReturnType<typeof log>[], receipt = 'SUCCESS', result?: string) => ({
  id: 'AB'.repeat(32),
  blockNumber: 7,
  blockTimeStamp: 1_700_000_000_000,
  receipt: { result: receipt },
  ...(result ? { result } : {}),
  log: logs,
});

describe('usdtTransfersOf', () => {
  it('reads a Transfer of the configured contract: addresses, micro-USDT, (txid, log index)', () => {
    const [transfer] = usdtTransfersOf([info([log({ address: 'ff'.repeat(20) }), log()])], USDT);
    expect(transfer).toEqual({
      txid: 'ab'.repeat(32),
      logIndex: 1,
      from: FROM,
      to: TO,
      amount: 11_000_000n,
      blockNumber: 7,
      blockTime: new Date(1_700_000_000_000),
    });
  });

  it.each([
    ['a failed receipt', info([log()], 'REVERT')],
    ['a FAILED result', info([log()], 'SUCCESS', 'FAILED')],
    ['another contract (a look-alike USDT)', info([log({ address: 'aa'.repeat(20) })])],
    ['another event', info([log({ topics: ['11'.repeat(32), addressTopic(FROM), addressTopic(TO)] })])],
    ['a topic missing', info([log({ topics: [TRANSFER_TOPIC, addressTopic(FROM)] })])],
    ['a zero amount', info([log({ data: word('0') })])],
    ['an amount beyond BIGINT', info([log({ data: 'f'.repeat(64) })])],
    ['malformed data', info([log({ data: 'zz' })])],
  ])('ignores %s', (_case, transactionInfo) => {
    expect(usdtTransfersOf([transactionInfo], USDT)).toEqual([]);
  });
});
