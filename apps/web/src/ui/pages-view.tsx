import type { UseInfiniteQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { rowsOfPages } from '../api/list-pages';
import { LoadMore } from './load-more';
import { Card } from './screen';
import { ErrorState, SkeletonRows } from './states';

type PagesViewProps<P, I> = {
  query: UseInfiniteQueryResult<{ pages: P[] }, unknown>;
  itemsOf: (page: P) => readonly I[];
  /** A row's identity: a row met on two pages (it moved between two requests) shows once. */
  keyOf: (item: I) => string;
  empty: ReactNode;
  children: (items: I[]) => ReactNode;
};

/** A load-more list with its loading, in-place error and empty states. */
export const PagesView = <P, I>({ query, itemsOf, keyOf, empty, children }: PagesViewProps<P, I>) => {
  if (query.isPending) return <SkeletonRows rows={4} />;
  if (query.isError) {
    return (
      <Card>
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      </Card>
    );
  }
  const items = rowsOfPages(query.data.pages.map(itemsOf), keyOf);
  if (items.length === 0) return <Card>{empty}</Card>;
  return (
    <>
      {children(items)}
      <LoadMore
        hasMore={query.hasNextPage}
        loading={query.isFetchingNextPage}
        onLoad={() => void query.fetchNextPage()}
      />
    </>
  );
};
