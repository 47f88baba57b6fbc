import fc from 'fast-check';
import type { z } from 'zod';

/**
 * fast-check arbitraries derived from the contracts' zod 4 request schemas (zod-fast-check only
 * speaks zod 3). It covers the schema kinds the contracts use; any other kind throws, so a
 * contract that starts using one fails the fuzz until this file learns it.
 *
 * The values are what a well-meaning client would send, before the hostile mutations: they
 * mostly pass validation so the requests reach the handlers.
 */

type Schema = z.core.$ZodType;
type Check = { _zod: { def: { check: string; [key: string]: unknown } } };
type Def = {
  type: string;
  checks?: Check[];
  format?: string;
  pattern?: RegExp;
  coerce?: boolean;
  shape?: Record<string, Schema>;
  options?: Schema[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  innerType?: Schema;
  element?: Schema;
  valueType?: Schema;
  in?: Schema;
  out?: Schema;
};

/** A field-specific source of values (ids of other users, say), mixed with the derived ones. */
export type FieldArbitraries = (key: string) => fc.Arbitrary<unknown> | undefined;

const defOf = (schema: Schema) => schema._zod.def as unknown as Def;
const checksOf = (def: Def) => (def.checks ?? []).map((check) => check._zod.def);

const isoDate = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

/** Recent days weigh more: they are the ones with data. */
const dateArbitrary = fc.oneof(
  {
    arbitrary: fc.integer({ min: -40, max: 2 }).map((days) => new Date(Date.now() + days * 86_400_000)),
    weight: 3,
  },
  { arbitrary: fc.constant(new Date()), weight: 1 },
);

const stringArbitrary = (def: Def): fc.Arbitrary<string> => {
  const checks = checksOf(def);
  const minLength = checks.find((c) => c.check === 'min_length')?.minimum as number | undefined;
  const maxLength = checks.find((c) => c.check === 'max_length')?.maximum as number | undefined;
  if (def.format === 'date') {
    return fc.oneof(
      isoDate,
      dateArbitrary.map((date) => date.toISOString().slice(0, 10)),
    );
  }
  if (def.format === 'datetime') return dateArbitrary.map((date) => date.toISOString());
  const pattern =
    def.pattern ?? (checks.find((c) => c.check === 'string_format')?.pattern as RegExp | undefined);
  const base = pattern
    ? fc.stringMatching(pattern)
    : fc.string({ minLength: minLength ?? 0, maxLength: Math.min(maxLength ?? 24, 24) });
  // `.trim()`, `.toUpperCase()`… (overwrite checks): a client may send the raw form.
  if (!checks.some((c) => c.check === 'overwrite')) return base;
  return fc
    .tuple(base, fc.constantFrom('as-is', 'lower', 'padded'))
    .map(([value, form]) =>
      form === 'lower' ? value.toLowerCase() : form === 'padded' ? ` ${value} ` : value,
    );
};

const numberArbitrary = (def: Def): fc.Arbitrary<number | string> => {
  const checks = checksOf(def);
  const integer = checks.some((c) => c.check === 'number_format' && c.format === 'safeint');
  const lower = checks.find((c) => c.check === 'greater_than');
  const upper = checks.find((c) => c.check === 'less_than');
  const bound = (check: typeof lower, step: number) =>
    check === undefined ? undefined : (check.value as number) + (check.inclusive ? 0 : step);
  const min = bound(lower, 1) ?? -1_000_000;
  const max = bound(upper, -1) ?? 2_147_483_647;
  const value = integer
    ? fc.oneof(fc.integer({ min, max: Math.min(max, min + 50) }), fc.integer({ min, max }))
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  // A coercing number (query strings, ids) also takes its digits as a string.
  return def.coerce ? fc.oneof(value, value.map(String)) : value;
};

const objectArbitrary = (def: Def, fields: FieldArbitraries | undefined) => {
  const shape = def.shape ?? {};
  const entries = Object.entries(shape).map(([key, schema]) => {
    const derived = arbitraryOf(schema, fields);
    const special = fields?.(key);
    // The field's plausible values weigh more: a request needs all its fields right to go deep.
    const mixed = special
      ? fc.oneof({ arbitrary: derived, weight: 1 }, { arbitrary: special, weight: 3 })
      : derived;
    return [key, mixed] as const;
  });
  // Optional, defaulted and prefaulted fields may be left out.
  const requiredKeys = Object.entries(shape)
    .filter(([, schema]) => schema._zod.optin !== 'optional')
    .map(([key]) => key);
  return fc.record(Object.fromEntries(entries), { requiredKeys });
};

/** An arbitrary of inputs for a zod schema (see the file comment for what it covers). */
export const arbitraryOf = (schema: Schema, fields?: FieldArbitraries): fc.Arbitrary<unknown> => {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return objectArbitrary(def, fields);
    case 'string':
      return stringArbitrary(def);
    case 'number':
      return numberArbitrary(def);
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? {}));
    case 'literal':
      return fc.constantFrom(...(def.values ?? []));
    case 'optional':
    case 'default':
    case 'prefault':
      return arbitraryOf(def.innerType!, fields);
    case 'nullable':
      return fc.option(arbitraryOf(def.innerType!, fields), { nil: null });
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => arbitraryOf(option, fields)));
    case 'array':
      return fc.array(arbitraryOf(def.element!, fields), { maxLength: 5 });
    case 'record':
      return fc.dictionary(fc.string({ maxLength: 8 }), arbitraryOf(def.valueType!, fields), { maxKeys: 4 });
    case 'pipe':
      return pipeArbitrary(def, fields);
    case 'unknown':
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
    default:
      throw new Error(`no fast-check arbitrary for the zod kind "${def.type}": teach zod-arbitrary.ts`);
  }
};

/**
 * `a.pipe(b)`: the input is what `a` takes. When `b` is a schema (not a transform) its values are
 * the valid ones (`ZSwitch`: a trimmed string piped into an enum), so they weigh more.
 */
const pipeArbitrary = (def: Def, fields: FieldArbitraries | undefined): fc.Arbitrary<unknown> => {
  const input = arbitraryOf(def.in!, fields);
  if (defOf(def.out!).type === 'transform') return input;
  return fc.oneof({ arbitrary: arbitraryOf(def.out!, fields), weight: 3 }, { arbitrary: input, weight: 1 });
};
