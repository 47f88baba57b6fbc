import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Card } from './screen';
import { ErrorState, SkeletonRows } from './states';

type QueryViewProps<T> = {
  query: UseQueryResult<T, unknown>;
  children: (data: T) => ReactNode;
  /** Shown while loading; skeleton rows by default. */
  loading?: ReactNode;
  /** When true for the data, `empty` is shown instead of the children. */
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  /** Wrap the error state in a card (for sections inside a screen). */
  card?: boolean;
  /** The section's name, shown above an in-place error so the reader knows what is missing. */
  title?: string;
};

/** Loading, in-place error, empty and content states of one contract-fed section. */
export const QueryView = <T,>({
  query,
  children,
  loading,
  isEmpty,
  empty,
  card = true,
  title,
}: QueryViewProps<T>) => {
  if (query.isPending) return <>{loading ?? <SkeletonRows />}</>;
  // A refresh that failed (a polled screen, a refetch refused by the rate limit) keeps what is on
  // screen; only a section that never loaded shows the error in its place.
  if (query.isError && query.data === undefined) {
    const state = <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
    return card ? <Card {...(title ? { title } : {})}>{state}</Card> : state;
  }
  const data = query.data as T;
  if (isEmpty?.(data)) return <>{empty}</>;
  return <>{children(data)}</>;
};
