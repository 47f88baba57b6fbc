import { createHash } from 'node:crypto';
import { utils } from 'tronweb';

/**
 * Encodings of the TRON HTTP API as java-tron writes them: addresses in hex with the 0x41 prefix
 * (`visible: true` asks for base58), event log addresses and topics as bare 20/32-byte hex, error
 * messages as the hex of their UTF-8 text, ABI words of 32 bytes.
 */

/** keccak256("Transfer(address,address,uint256)"): topic 0 of every TRC20 Transfer log. */
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export const SELECTORS = {
  transfer: 'a9059cbb',
  balanceOf: '70a08231',
  decimals: '313ce567',
  symbol: '95d89b41',
  name: '06fdde03',
  totalSupply: '18160ddd',
} as const;

export const sha256Hex = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** 41… hex (lower case) of a base58 or hex address; undefined when it is neither. */
export const hexAddressOf = (value: unknown): string | undefined => {
  if (typeof value !== 'string' || value === '') return undefined;
  if (/^(41|0x)[0-9a-fA-F]{40}$/.test(value)) return `41${value.slice(2).toLowerCase()}`;
  if (!utils.address.isAddress(value)) return undefined;
  return (utils.address.toHex(value) as string).toLowerCase();
};

export const base58Of = (hex41: string): string => utils.address.fromHex(hex41) as string;

/** The address as the caller asked for it: base58 with `visible`, else 41… hex. */
export const addressOut = (hex41: string, visible: boolean): string => (visible ? base58Of(hex41) : hex41);

export const word = (value: bigint): string => value.toString(16).padStart(64, '0');

/** An address as an ABI word / log topic: its 20 bytes left-padded to 32. */
export const addressWord = (hex41: string): string => hex41.slice(2).padStart(64, '0');

/** The 41… address held in the last 20 bytes of an ABI word. */
export const addressFromWord = (wordHex: string): string => `41${wordHex.slice(24, 64).toLowerCase()}`;

/** ABI encoding of a single `string` return value. */
export const stringResult = (text: string): string => {
  const bytes = Buffer.from(text, 'utf8');
  const padded = bytes.toString('hex').padEnd(Math.ceil(bytes.length / 32) * 64, '0');
  return word(32n) + word(BigInt(bytes.length)) + padded;
};

/** java-tron writes result messages as the hex of their UTF-8 text. */
export const hexMessage = (text: string): string => Buffer.from(text, 'utf8').toString('hex');

/** Micro-units (6 decimals) of a decimal string ("12.5" → 12500000n); throws on anything else. */
export const toUnits = (amount: string, decimals = 6): bigint => {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(amount);
  if (!match) throw new Error(`not a decimal amount: ${amount}`);
  const fraction = match[2] ?? '';
  if (fraction.length > decimals) throw new Error(`more than ${decimals} decimals: ${amount}`);
  return BigInt(match[1]!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
};

/** Decimal string of micro-units (12500000n → "12.5"). */
export const fromUnits = (units: bigint, decimals = 6): string => {
  const scale = 10n ** BigInt(decimals);
  const whole = units / scale;
  const fraction = (units % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole.toString();
};
