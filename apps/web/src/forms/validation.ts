import { compareDecimal, type DecimalBoundParams, type ErrorCode } from '@gridbot/contracts';
import type { z } from 'zod';

/**
 * Forms validate with the contracts' own input schemas: what a form accepts is exactly what the
 * server accepts. This module only reads a refusal (the zod issue) and names the docs/product.md#validation message
 * for it — a key of `validation.*` with its parameters, or a catalogue code whose text is shown.
 */
export type ValidationKey =
  | 'required'
  | 'numeric'
  | 'integer'
  | 'decimal'
  | 'maxDecimals'
  | 'min'
  | 'max'
  | 'greaterThan'
  | 'minLength'
  | 'maxLength'
  | 'alphanumeric'
  | 'okxApiKey'
  | 'okxSecret'
  | 'printable'
  | 'uid'
  | 'string'
  | 'deepestStep'
  | 'invalid';

export type Problem = { key: ValidationKey; params?: Record<string, string | number> } | { code: ErrorCode };

/** How the form reads a field's refusals beyond the generic ones. */
export type FieldRule = {
  /** A decimal amount typed by a person: a decimal comma is accepted (ru keyboards). */
  decimal?: boolean;
  /** Shown for an empty field instead of "value required". */
  required?: Problem;
  /** What a failed format (regex) means for this field; decimals have their own reading. */
  format?: Problem;
  /** What a refinement without bound parameters means (a cross-field rule). */
  custom?: Problem;
};

/** Accepts a decimal comma, as people type on ru keyboards. */
export const normalizeDecimal = (value: string): string => value.trim().replace(',', '.');

/** The value a form sends for a field: decimals with a point, everything else trimmed. */
export const wireText = (raw: string, rule: FieldRule = {}): string =>
  rule.decimal ? normalizeDecimal(raw) : raw.trim();

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/** The most decimals the field's own format takes (its schema is asked, nothing is re-stated). */
const decimalsAllowed = (schema: z.ZodType): number => {
  const formatRefuses = (digits: number) =>
    schema
      .safeParse(`1.${'1'.repeat(digits)}`)
      .error?.issues.some((issue) => issue.code === 'invalid_format');
  let digits = 0;
  while (digits < 18 && !formatRefuses(digits + 1)) digits++;
  return digits;
};

/** A decimal the contract's format refused: not a number, not a plain decimal, or too precise. */
const decimalFormatProblem = (schema: z.ZodType, value: string): Problem => {
  if (!NUMERIC.test(value)) return { key: 'numeric' };
  if (!PLAIN_DECIMAL.test(value)) return { key: 'decimal' };
  return { key: 'maxDecimals', params: { count: decimalsAllowed(schema) } };
};

const boundOf = (params: Record<string, unknown> | undefined): DecimalBoundParams | null =>
  (params?.bound === 'min' || params?.bound === 'max') && typeof params.value === 'string'
    ? { bound: params.bound, value: params.value }
    : null;

/** One zod issue of `schema` on `value`, named as a docs/product.md#validation message. */
export const problemOfIssue = (
  issue: z.core.$ZodIssue,
  schema: z.ZodType,
  value: string,
  rule: FieldRule = {},
): Problem => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.expected === 'int') return { key: 'integer' };
      return issue.expected === 'number' ? { key: 'numeric' } : { key: 'string' };
    case 'too_small': {
      // A length is a count: its text has plural forms.
      if (issue.origin === 'string') return { key: 'minLength', params: { count: Number(issue.minimum) } };
      const min = String(issue.minimum);
      return issue.inclusive === false
        ? { key: 'greaterThan', params: { min } }
        : { key: 'min', params: { min } };
    }
    case 'too_big':
      if (issue.origin === 'string') return { key: 'maxLength', params: { count: Number(issue.maximum) } };
      return { key: 'max', params: { max: String(issue.maximum) } };
    case 'invalid_format':
      if (rule.decimal) return decimalFormatProblem(schema, value);
      return rule.format ?? { key: 'invalid' };
    case 'custom': {
      const bound = boundOf(issue.params);
      if (bound) return { key: bound.bound, params: { [bound.bound]: bound.value } };
      return rule.custom ?? { key: 'invalid' };
    }
    default:
      return { key: 'invalid' };
  }
};

/**
 * Checks one field as the server will: `wire` is the value the form sends (text for query
 * parameters, which the contract coerces; a number for a JSON body field).
 */
export const checkField = (
  schema: z.ZodType,
  raw: string,
  rule: FieldRule = {},
  wire: (text: string) => unknown = (text) => text,
): Problem | null => {
  const text = wireText(raw, rule);
  if (text === '') return rule.required ?? { key: 'required' };
  const issue = schema.safeParse(wire(text)).error?.issues[0];
  return issue ? problemOfIssue(issue, schema, text, rule) : null;
};

/**
 * A whole number typed as text, for a JSON body: anything that is not written as a number is sent
 * as NaN so the contract refuses it ("1e2" or "0x10" are not what a person meant).
 */
export const integerInput = (text: string): number => (NUMERIC.test(text) ? Number(text) : Number.NaN);

/** Client-only context the contracts cannot know: an amount above the balance shown. */
export const checkAvailable = (raw: string, available: string | undefined): Problem | null => {
  const value = normalizeDecimal(raw);
  if (available === undefined || !PLAIN_DECIMAL.test(value)) return null;
  return compareDecimal(value, available) > 0 ? { key: 'max', params: { max: available } } : null;
};

/** The first problem found, in the order the checks are given. */
export const firstProblem = (...problems: readonly (Problem | null)[]): Problem | null =>
  problems.find((problem) => problem !== null) ?? null;
