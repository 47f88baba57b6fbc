import type { EndpointDefinition, ResponseOf } from '@gridbot/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ApiError } from './api-error';
import { type CallInput, callApi } from './call-api';
import { continueList } from './list-pages';
import { queryKeyOf } from './query-keys';

type Cursored = { nextCursor: string | null };

/**
 * Load-more lists (docs/product.md#behaviour "Paging"), paged by cursor
 * (docs/decisions.md#lists-paged-by-cursor-issue-22): `inputFor(undefined)` is the first page,
 * `inputFor(cursor)` the page after the one whose `nextCursor` it is, so rows arriving at the top
 * meanwhile shift nothing below. A refetch asks the pages again from the first, each after the
 * fresh one before it. `pagedOf` finds `nextCursor` when the list is not the answer itself
 * (`answer.partners`).
 */
export const useApiCursorPages = <E extends EndpointDefinition>(
  endpoint: E,
  inputFor: (cursor: string | undefined) => CallInput<E>,
  options: { enabled?: boolean; pagedOf?: (answer: ResponseOf<E>) => Cursored } = {},
) =>
  useInfiniteQuery<
    ResponseOf<E>,
    ApiError,
    { pages: ResponseOf<E>[] },
    readonly unknown[],
    string | undefined
  >({
    queryKey: [...queryKeyOf(endpoint, inputFor(undefined)), 'pages'],
    queryFn: ({ pageParam, signal }) => callApi(endpoint, inputFor(pageParam), { signal }),
    initialPageParam: undefined,
    getNextPageParam: (last) =>
      (options.pagedOf ? options.pagedOf(last) : (last as unknown as Cursored)).nextCursor ?? undefined,
    ...(options.enabled === undefined ? {} : { enabled: options.enabled }),
  });

type LivePage<I> = { items: readonly I[]; nextCursor: string | null };

/**
 * A load-more list whose first page is another query's, refreshed on its own (the wallet's
 * transactions come with its balances, every few seconds). "Load more" takes that page as it is
 * on screen and loads the pages after it by cursor; when the first page comes again with new rows
 * at the top, the list is the fresh page followed by the loaded rows after it, none twice and
 * none lost (`continueList`). Only the first page is asked again: the endpoint may be limited to
 * one call in 2 s, and the rows below do not move. The loaded pages live under a key of their own,
 * so invalidating the endpoint does not refetch them.
 */
export const useLiveList = <E extends EndpointDefinition, I>({
  endpoint,
  head,
  inputFor,
  pageOf,
  keyOf,
}: {
  endpoint: E;
  /** The first page as its query has it now; undefined while it loads. */
  head: LivePage<I> | undefined;
  inputFor: (cursor: string) => CallInput<E>;
  pageOf: (answer: ResponseOf<E>) => LivePage<I>;
  keyOf: (item: I) => string;
}) => {
  const [anchor, setAnchor] = useState<{ items: readonly I[]; cursor: string } | null>(null);
  const cursor = anchor?.cursor ?? '';
  const tail = useInfiniteQuery<
    ResponseOf<E>,
    ApiError,
    { pages: ResponseOf<E>[] },
    readonly unknown[],
    string
  >({
    queryKey: [`${endpoint.id}:more`, queryKeyOf(endpoint, inputFor(cursor))[1]],
    queryFn: ({ pageParam, signal }) => callApi(endpoint, inputFor(pageParam), { signal }),
    initialPageParam: cursor,
    getNextPageParam: (last) => pageOf(last).nextCursor ?? undefined,
    enabled: anchor !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const headItems = head?.items ?? [];
  const loaded = tail.data?.pages.flatMap((page) => pageOf(page).items) ?? [];
  const list = anchor
    ? continueList(headItems, [...anchor.items, ...loaded], keyOf)
    : { items: [...headItems], joined: true };
  // More new rows than a page: what lies between is unknown, so the list starts again from the top.
  useEffect(() => {
    if (!list.joined) setAnchor(null);
  }, [list.joined]);
  const last = tail.data?.pages.at(-1);
  const hasMore = anchor ? (last ? pageOf(last).nextCursor !== null : true) : Boolean(head?.nextCursor);
  return {
    items: list.items,
    hasMore,
    loading: tail.isFetching,
    error: tail.isError ? tail.error : null,
    loadMore: () => {
      if (anchor) void tail.fetchNextPage();
      else if (head?.nextCursor) setAnchor({ items: headItems, cursor: head.nextCursor });
    },
    retry: () => void (tail.data ? tail.fetchNextPage() : tail.refetch()),
  };
};
