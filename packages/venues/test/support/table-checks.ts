import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import type { ErrorOutcome, VenueSpec } from '../../src';

/*
 * What every venue table must satisfy (../../../../VENUES.md "Adding a venue"): each rule cites a
 * section of docs/venues that exists, every pool is sound, every request is costed only in pools
 * the table defines, every code maps to an outcome, and the id and key rules agree with themselves.
 * Run inside a `describe` per table.
 */

const root = resolve(import.meta.dirname, '../../../..');

/** The `#anchor`s a markdown page defines: its headings, slugged as GitHub does. */
export const anchorsOf = (file: string): Set<string> =>
  new Set(
    readFileSync(resolve(root, file), 'utf8')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) =>
        line
          .replace(/^#+ /, '')
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N} -]/gu, '')
          .replace(/ /g, '-'),
      ),
  );

const docsOf = (value: unknown): string[] => {
  if (typeof value !== 'object' || value === null || value instanceof RegExp) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'doc' && typeof inner === 'string' ? [inner] : docsOf(inner),
  );
};

const OUTCOMES: ReadonlySet<ErrorOutcome> = new Set<ErrorOutcome>([
  'unknown',
  'throttled',
  'clock',
  'duplicate',
  'not-found',
  'key-invalid',
  'permission',
  'not-listed',
  'market-closed',
  'below-minimum',
  'insufficient-balance',
  'rejected',
  'unavailable',
]);

/** The value at a dotted path of the table (`userStream.connectionLifeMs`). */
const at = (spec: VenueSpec, path: string): unknown =>
  path
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], spec);

export const checkVenueTable = (spec: VenueSpec) => {
  it('cites a section of docs/venues that exists for every rule', () => {
    const docs = docsOf(spec);
    expect(docs.length).toBeGreaterThan(0);
    for (const doc of docs) {
      const [file, anchor] = doc.split('#');
      expect(file, doc).toBe(`docs/venues/${spec.id}.md`);
      expect(existsSync(resolve(root, file!)), file).toBe(true);
      expect(anchorsOf(file!).has(anchor!), doc).toBe(true);
    }
  });

  it('has pools with positive limits and unique ids', () => {
    const ids = spec.pools.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const pool of spec.pools) {
      expect(pool.limit).toBeGreaterThan(0);
      expect(pool.windowMs).toBeGreaterThan(0);
    }
  });

  it('costs every call of a grid in at least one pool, and only in pools it defines', () => {
    const ids = new Set(spec.pools.map((p) => p.id));
    for (const [name, endpoint] of Object.entries(spec.endpoints)) {
      const cost = spec.requestCost({ ...endpoint, params: new URLSearchParams() });
      expect(Object.keys(cost).length, name).toBeGreaterThan(0);
      for (const [pool, units] of Object.entries(cost)) {
        expect(ids.has(pool), `${name}: ${pool}`).toBe(true);
        expect(units, `${name}: ${pool}`).toBeGreaterThan(0);
      }
    }
  });

  it('maps every code to one of our outcomes, with the venue words and a status', () => {
    expect(Object.keys(spec.errors.codes).length).toBeGreaterThan(0);
    for (const [code, entry] of Object.entries(spec.errors.codes)) {
      expect(OUTCOMES.has(entry.outcome), code).toBe(true);
      expect(entry.message.length, code).toBeGreaterThan(0);
      expect(entry.status, code).toBeGreaterThanOrEqual(200);
      for (const rule of entry.byMessage ?? []) expect(OUTCOMES.has(rule.outcome), code).toBe(true);
    }
    // Every venue has codes for these, or the engine could not tell them apart.
    const outcomes = new Set(
      Object.values(spec.errors.codes).flatMap((c) => [
        c.outcome,
        ...(c.byMessage ?? []).map((r) => r.outcome),
      ]),
    );
    for (const needed of ['throttled', 'clock', 'not-found', 'duplicate', 'insufficient-balance'] as const) {
      expect(outcomes.has(needed), needed).toBe(true);
    }
  });

  it('has a client order id rule whose pattern agrees with its length', () => {
    const { pattern, maxLength } = spec.clientOrderId;
    expect(pattern.test('a'.repeat(maxLength))).toBe(true);
    expect(pattern.test('a'.repeat(maxLength + 1))).toBe(false);
    expect(pattern.test('')).toBe(false);
  });

  it('has key patterns that refuse empty and spaced input', () => {
    for (const pattern of [spec.keys.keyPattern, spec.keys.secretPattern, spec.keys.passphrasePattern]) {
      if (!pattern) continue;
      expect(pattern.test('')).toBe(false);
      expect(pattern.test(' a b ')).toBe(false);
    }
    expect(spec.keys.passphrase).toBe(spec.keys.passphrasePattern !== undefined);
  });

  it('names only fields of the table as unverified', () => {
    for (const path of spec.unverified ?? []) expect(at(spec, path), path).not.toBeUndefined();
  });
};
