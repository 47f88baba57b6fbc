import { LedgerError } from './ledger-error';

/** USDT (TRC20) has 6 decimals: the ledger counts integer micro-USDT. */
export const MICRO_PER_USDT = 1_000_000n;
const DECIMALS = 6;
// Strict on purpose: no exponent, no leading '+', no bare '.5' or '5.', so a string means one value.
const DECIMAL_STRING = /^(-?)(\d+)(?:\.(\d{1,6}))?$/;

/** '12.345678' → 12345678n. Exact (string arithmetic, never a float); more than 6 decimals is an error. */
export const toMicro = (usdt: string): bigint => {
  const match = typeof usdt === 'string' ? DECIMAL_STRING.exec(usdt) : null;
  if (!match) {
    throw new LedgerError(
      'INVALID_AMOUNT',
      `Not a USDT amount with at most ${DECIMALS} decimals: ${String(usdt)}`,
    );
  }
  const [, sign = '', whole = '0', fraction = ''] = match;
  const micro = BigInt(whole) * MICRO_PER_USDT + BigInt(fraction.padEnd(DECIMALS, '0'));
  return sign === '-' ? -micro : micro;
};

/** 12345678n → '12.345678'; 12000000n → '12' (canonical: no trailing zeros, so it round-trips). */
export const fromMicro = (micro: bigint): string => {
  if (typeof micro !== 'bigint') throw new LedgerError('INVALID_AMOUNT', 'fromMicro needs a bigint');
  const negative = micro < 0n;
  const abs = negative ? -micro : micro;
  const whole = (abs / MICRO_PER_USDT).toString();
  const fraction = (abs % MICRO_PER_USDT).toString().padStart(DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
};
