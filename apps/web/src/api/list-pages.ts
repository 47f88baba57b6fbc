/**
 * What a load-more list shows (docs/decisions.md#lists-paged-by-cursor-issue-22). Pages come by
 * cursor, so each continues right after the previous one; these keep the list on screen exact
 * when rows arrive at the top, or a row moves, between two requests.
 */

/**
 * The pages' rows in order, each once: a row met again (it moved down the list between two
 * requests, e.g. a deal that closed) keeps its first place and takes the later, fresher data.
 */
export const rowsOfPages = <I>(pages: readonly (readonly I[])[], keyOf: (item: I) => string): I[] => {
  const rows = new Map<string, I>();
  for (const page of pages) {
    for (const item of page) rows.set(keyOf(item), item);
  }
  return [...rows.values()];
};

/**
 * The list after its first page was fetched again (`fresh`, newest first) while `shown` — the
 * first page as it was, then the pages loaded after it — is on screen. The fresh page covers the
 * top down to some row of `shown`; the rows after that one follow it, each once. `joined` is
 * false when no row of the fresh page is on screen: more rows arrived than a page holds, so the
 * rows between are unknown, and only the fresh page is exact.
 */
export const continueList = <I>(
  fresh: readonly I[],
  shown: readonly I[],
  keyOf: (item: I) => string,
): { items: I[]; joined: boolean } => {
  const inFresh = new Set(fresh.map(keyOf));
  let joinAt = -1;
  shown.forEach((item, index) => {
    if (inFresh.has(keyOf(item))) joinAt = index;
  });
  if (joinAt < 0) return { items: [...fresh], joined: shown.length === 0 };
  const rest = shown.slice(joinAt + 1).filter((item) => !inFresh.has(keyOf(item)));
  return { items: [...fresh, ...rest], joined: true };
};
