import { compareDecimals } from '../format/decimal';

/** Spec §5 validation messages, as keys of `validation.*` with their parameters. */
export type Problem = {
  key:
    | 'required'
    | 'numeric'
    | 'integer'
    | 'decimal'
    | 'maxDecimals'
    | 'min'
    | 'max'
    | 'minLength'
    | 'maxLength'
    | 'alphanumeric'
    | 'string'
    | 'tronAddress'
    | 'withdrawAddressRequired'
    | 'transferToSelf';
  params?: Record<string, string | number>;
};

const NUMERIC = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)$/;
const DECIMAL = /^\d+(\.\d+)?$/;

/** Accepts a decimal comma, as people type on ru keyboards. */
export const normalizeDecimal = (value: string): string => value.trim().replace(',', '.');

type DecimalRule = { min?: string; max?: string; maxDecimals?: number };

export const checkDecimal = (raw: unknown, rule: DecimalRule = {}): Problem | null => {
  if (typeof raw !== 'string') return { key: 'string' };
  const value = normalizeDecimal(raw);
  if (value === '') return { key: 'required' };
  if (!NUMERIC.test(value)) return { key: 'numeric' };
  if (!DECIMAL.test(value)) return { key: 'decimal' };
  const decimals = value.split('.')[1]?.length ?? 0;
  if (rule.maxDecimals !== undefined && decimals > rule.maxDecimals) {
    return { key: 'maxDecimals', params: { digits: rule.maxDecimals } };
  }
  if (rule.min !== undefined && compareDecimals(value, rule.min) < 0)
    return { key: 'min', params: { min: rule.min } };
  if (rule.max !== undefined && compareDecimals(value, rule.max) > 0)
    return { key: 'max', params: { max: rule.max } };
  return null;
};

export const checkInteger = (raw: unknown, rule: { min?: number; max?: number } = {}): Problem | null => {
  if (typeof raw !== 'string') return { key: 'string' };
  const value = raw.trim();
  if (value === '') return { key: 'required' };
  if (!NUMERIC.test(value)) return { key: 'numeric' };
  if (!/^\d+$/.test(value)) return { key: 'integer' };
  const number = Number(value);
  if (rule.min !== undefined && number < rule.min) return { key: 'min', params: { min: rule.min } };
  if (rule.max !== undefined && number > rule.max) return { key: 'max', params: { max: rule.max } };
  return null;
};

/** Spec §5 text rules (API keys): a string of 50–100 letters and numbers. */
export const checkKeyText = (raw: unknown): Problem | null => {
  if (typeof raw !== 'string') return { key: 'string' };
  const value = raw.trim();
  if (value === '') return { key: 'required' };
  if (!/^[A-Za-z0-9]+$/.test(value)) return { key: 'alphanumeric' };
  if (value.length < 50) return { key: 'minLength', params: { min: 50 } };
  if (value.length > 100) return { key: 'maxLength', params: { max: 100 } };
  return null;
};

/** TRON base58 address (the server also checks the checksum). */
export const checkTronAddress = (raw: string): Problem | null => {
  const value = raw.trim();
  if (value === '') return { key: 'withdrawAddressRequired' };
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(value)) return { key: 'tronAddress' };
  return null;
};

export const checkRecipient = (raw: string, ownUid: number): Problem | null => {
  const problem = checkInteger(raw, { min: 1 });
  if (problem) return problem;
  return Number(raw.trim()) === ownUid ? { key: 'transferToSelf' } : null;
};
