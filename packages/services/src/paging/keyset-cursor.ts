import { z } from 'zod';
import { AppError } from '../errors';

/**
 * Keyset paging of the load-more lists (docs/decisions.md#lists-paged-by-cursor-issue-22). A list
 * is read in one unique, stable order (e.g. newest first by `(created_at, id)`), and a page is
 * "the next `limit` rows after the previous page's last one", so rows arriving at the top while
 * the user pages never shift the pages below. The cursor is that last row's sort key, opaque to
 * clients (base64url of its JSON).
 */

export const encodeCursor = (key: readonly (string | number | null)[]): string =>
  Buffer.from(JSON.stringify(key)).toString('base64url');

/** The sort key a cursor carries; one that is not a cursor of this list is a VALIDATION error. */
export const decodeCursor = <T>(cursor: string, key: z.ZodType<T>): T => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const result = key.safeParse(parsed);
  if (!result.success) {
    throw new AppError('VALIDATION', [{ path: 'cursor', message: 'is not a cursor of this list' }]);
  }
  return result.data;
};

/** An instant in a cursor (ISO 8601, milliseconds: the columns are `timestamptz(3)`). */
export const ZCursorInstant = z.iso.datetime().transform((text) => new Date(text));
/** A UTC day (`YYYY-MM-DD`) or month (`YYYY-MM`) in a cursor. */
export const ZCursorDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
export const ZCursorMonth = z.string().regex(/^\d{4}-\d{2}$/);
/** A 64-bit id in a cursor, as a digit string (optionally negative). */
export const ZCursorId = z
  .string()
  .regex(/^-?\d{1,19}$/)
  .transform((text) => BigInt(text));

/**
 * A page out of up to `limit + 1` rows read after the cursor: the first `limit` are the page; the
 * extra one only says there is more, and the page's last row is where the next one starts.
 */
export const keysetPage = <R>(
  rows: readonly R[],
  limit: number,
  keyOf: (row: R) => readonly (string | number | null)[],
): { rows: R[]; nextCursor: string | null } => {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
};

/**
 * Which page to read: after a cursor (keyset), or the spec's `page` by offset, kept for
 * compatibility (page 1 is the same either way).
 */
export type PagePosition<K> = { after: K; offset: 0 } | { after: null; offset: number };

export const pagePosition = <K>(
  input: { page: number; limit: number; cursor?: string | undefined },
  key: z.ZodType<K>,
): PagePosition<K> =>
  input.cursor === undefined
    ? { after: null, offset: (input.page - 1) * input.limit }
    : { after: decodeCursor(input.cursor, key), offset: 0 };

/**
 * Every row of a cursor-paged list, a page at a time (docs/decisions.md#lists-paged-by-cursor-issue-22):
 * each read starts right after the previous page's last row, so rows added meanwhile neither push
 * another out nor bring one back twice. What exports and other full readers iterate.
 */
export async function* cursorPages<T>(
  read: (cursor: string | undefined) => Promise<{ items: readonly T[]; nextCursor: string | null }>,
): AsyncGenerator<readonly T[]> {
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    yield page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
