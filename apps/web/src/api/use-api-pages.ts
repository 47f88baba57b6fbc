import type { EndpointDefinition, ResponseOf } from '@gridbot/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { ApiError } from './api-error';
import { type CallInput, callApi } from './call-api';
import { queryKeyOf } from './query-keys';

type Paged = { page: number; hasMore: boolean };

/**
 * Load-more lists (docs/product.md#behaviour "Paging"): the first load is page 1, each further page is appended.
 * `inputFor(page)` builds the call's inputs; the key comes from the contract and page 1's inputs.
 */
export const useApiPages = <E extends EndpointDefinition>(
  endpoint: E,
  inputFor: (page: number) => CallInput<E>,
  options: { enabled?: boolean; firstPage?: number } = {},
) =>
  useInfiniteQuery<ResponseOf<E>, ApiError, { pages: ResponseOf<E>[] }, readonly unknown[], number>({
    queryKey: [...queryKeyOf(endpoint, inputFor(options.firstPage ?? 1)), 'pages'],
    queryFn: ({ pageParam, signal }) => callApi(endpoint, inputFor(pageParam), { signal }),
    initialPageParam: options.firstPage ?? 1,
    getNextPageParam: (last) => {
      const paged = last as unknown as Paged;
      return paged.hasMore ? paged.page + 1 : undefined;
    },
    ...(options.enabled === undefined ? {} : { enabled: options.enabled }),
  });
