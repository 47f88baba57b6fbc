type Page<T> = { items: readonly T[]; hasMore: boolean };

/**
 * Every row of a newest-first listing, read page by page through the screen's own service (so
 * the file holds the screen's figures), one page in memory at a time. A row added while the
 * export runs pushes the older rows one place down, so the next page starts with a row the
 * previous page ended with: each page is sent without the rows the previous one had (and without
 * `skip`'s keys). docs/product.md#exports says what a concurrent change can still do.
 */
export async function* freshPages<T>(
  fetch: (page: number) => Promise<Page<T>>,
  key: (row: T) => string,
  skip: ReadonlySet<string> = new Set(),
): AsyncGenerator<T[]> {
  let previous = new Set<string>();
  for (let page = 1; ; page += 1) {
    const answer = await fetch(page);
    yield answer.items.filter((row) => !previous.has(key(row)) && !skip.has(key(row)));
    if (!answer.hasMore || answer.items.length === 0) return;
    previous = new Set(answer.items.map(key));
  }
}
