import { describe, expect, it } from 'vitest';
import { continueList, rowsOfPages } from '../src/api/list-pages';

type Row = { id: string; status?: string };
const rows = (...ids: string[]): Row[] => ids.map((id) => ({ id }));
const ids = (list: readonly Row[]) => list.map((row) => row.id);
const byId = (row: Row) => row.id;
/** Rows r1 (newest) … rN, as the server lists them. */
const range = (from: number, to: number) =>
  rows(...Array.from({ length: to - from + 1 }, (_, index) => `r${from + index}`));

describe('load more while new rows arrive at the top (docs/decisions.md#lists-paged-by-cursor-issue-22)', () => {
  it('a transfer arriving while paging: every row once, none lost', () => {
    // On screen: the first page (r1–r10) and the page loaded after it by cursor (r11–r20).
    const shown = [...range(1, 10), ...range(11, 20)];
    // The wallet refreshes its first page: the new transfer on top pushed r10 off it.
    const fresh = [{ id: 'new' }, ...range(1, 9)];
    const list = continueList(fresh, shown, byId);
    expect(list.joined).toBe(true);
    expect(ids(list.items)).toEqual(['new', ...ids(range(1, 20))]);
  });

  it('three transfers: the three rows pushed off the first page stay on screen', () => {
    const shown = [...range(1, 10), ...range(11, 20)];
    const fresh = [...rows('n3', 'n2', 'n1'), ...range(1, 7)];
    expect(ids(continueList(fresh, shown, byId).items)).toEqual(['n3', 'n2', 'n1', ...ids(range(1, 20))]);
  });

  it("the fresh page's data wins: a withdrawal that was confirmed meanwhile", () => {
    const shown = [{ id: 'w1', status: 'pending' }, ...range(1, 9)];
    const fresh = [{ id: 'w1', status: 'confirmed' }, ...range(1, 9)];
    expect(continueList(fresh, shown, byId).items[0]).toEqual({ id: 'w1', status: 'confirmed' });
  });

  it('a row gone from the first page (a pending deposit credited, listed anew on top) is not kept', () => {
    const shown = [...rows('d5'), ...range(1, 9), ...range(10, 15)];
    const fresh = [...rows('t9'), ...range(1, 9)];
    expect(ids(continueList(fresh, shown, byId).items)).toEqual(['t9', ...ids(range(1, 15))]);
  });

  it('more new rows than a page: not joined, only the fresh page is exact', () => {
    const shown = [...range(1, 10), ...range(11, 20)];
    const fresh = rows(...Array.from({ length: 10 }, (_, index) => `n${10 - index}`));
    expect(continueList(fresh, shown, byId)).toEqual({ items: fresh, joined: false });
    expect(continueList(fresh, [], byId)).toEqual({ items: fresh, joined: true });
  });

  it('pages that met a row twice (it moved down between two requests) show it once, in its first place', () => {
    const pages = [
      [{ id: 'lot9', status: 'open' }, { id: 'lot8' }],
      [{ id: 'lot3' }, { id: 'lot9', status: 'closed' }],
    ];
    expect(rowsOfPages(pages, byId)).toEqual([
      { id: 'lot9', status: 'closed' },
      { id: 'lot8' },
      { id: 'lot3' },
    ]);
  });
});
