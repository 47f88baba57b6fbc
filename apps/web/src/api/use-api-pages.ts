import type { EndpointDefinition, ResponseOf } from '@gridbot/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ApiError } from './api-error';
import { type CallInput, callApi } from './call-api';
import { queryKeyOf } from './query-keys';

type Paged = { page: number; hasMore: boolean };
type Cursored = { nextCursor: string | null };

/** One load-more list: `first` is the first page's parameter, `next` reads the following one from a page. */
const usePages = <E extends EndpointDefinition, P>(
  endpoint: E,
  inputFor: (param: P) => CallInput<E>,
  first: P,
  next: (last: ResponseOf<E>) => P | undefined,
  enabled: boolean | undefined,
) =>
  useInfiniteQuery<ResponseOf<E>, ApiError, { pages: ResponseOf<E>[] }, readonly unknown[], P>({
    queryKey: [...queryKeyOf(endpoint, inputFor(first)), 'pages'],
    queryFn: ({ pageParam, signal }) => callApi(endpoint, inputFor(pageParam as P), { signal }),
    initialPageParam: first,
    getNextPageParam: next,
    ...(enabled === undefined ? {} : { enabled }),
  });

/**
 * Load-more lists (docs/product.md#behaviour "Paging"): the first load is page 1, each further page is appended.
 * `inputFor(page)` builds the call's inputs; the key comes from the contract and page 1's inputs.
 */
export const useApiPages = <E extends EndpointDefinition>(
  endpoint: E,
  inputFor: (page: number) => CallInput<E>,
  options: {
    enabled?: boolean;
    firstPage?: number;
    /** Where the paging fields are when the list is not the answer itself (`answer.partners`). */
    pagedOf?: (answer: ResponseOf<E>) => Paged;
  } = {},
) =>
  usePages(
    endpoint,
    inputFor,
    options.firstPage ?? 1,
    (last) => {
      const paged = options.pagedOf ? options.pagedOf(last) : (last as unknown as Paged);
      return paged.hasMore ? paged.page + 1 : undefined;
    },
    options.enabled,
  );

/**
 * Load-more lists paged by cursor (`nextCursor` of the previous answer, null on the last page):
 * `inputFor(undefined)` is the first page.
 */
export const useApiCursorPages = <E extends EndpointDefinition>(
  endpoint: E,
  inputFor: (cursor: string | undefined) => CallInput<E>,
  options: { enabled?: boolean } = {},
) =>
  usePages<E, string | undefined>(
    endpoint,
    inputFor,
    undefined,
    (last) => (last as unknown as Cursored).nextCursor ?? undefined,
    options.enabled,
  );
