import type { EndpointDefinition, ResponseOf } from '@gridbot/contracts';
import {
  type QueryClient,
  type UseMutationOptions,
  type UseQueryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { ApiError } from './api-error';
import { type CallInput, callApi } from './call-api';
import { queryKeyOf } from './query-keys';

type QueryOptions<E extends EndpointDefinition> = Omit<
  UseQueryOptions<ResponseOf<E>, ApiError, ResponseOf<E>, ReturnType<typeof queryKeyOf<E>>>,
  'queryKey' | 'queryFn'
>;

export const apiQueryOptions = <E extends EndpointDefinition>(
  endpoint: E,
  input: CallInput<E> = {} as CallInput<E>,
) => ({
  queryKey: queryKeyOf(endpoint, input),
  queryFn: ({ signal }: { signal: AbortSignal }) => callApi(endpoint, input, { signal }),
});

/** A read through its contract, cached under the contract's key. */
export const useApiQuery = <E extends EndpointDefinition>(
  endpoint: E,
  input: CallInput<E> = {} as CallInput<E>,
  options: QueryOptions<E> = {},
) => useQuery({ ...apiQueryOptions(endpoint, input), ...options });

/** Marks stale every read the mutation contract declares in `invalidates`; active ones refetch. */
export const invalidateAfter = (client: QueryClient, endpoint: EndpointDefinition): Promise<unknown> =>
  Promise.all((endpoint.invalidates ?? []).map((id) => client.invalidateQueries({ queryKey: [id] })));

type MutationOptions<E extends EndpointDefinition> = Omit<
  UseMutationOptions<ResponseOf<E>, ApiError, CallInput<E>>,
  'mutationFn'
> & {
  /** false for calls that change nothing this time (a settings preview). */
  invalidate?: boolean;
};

/**
 * An action through its contract; the variables are the call's inputs. After a success the reads
 * the contract declares in `invalidates` are refreshed, before the screen's own `onSuccess`.
 */
export const useApiMutation = <E extends EndpointDefinition>(
  endpoint: E,
  { invalidate = true, onSuccess, ...options }: MutationOptions<E> = {},
) => {
  const client = useQueryClient();
  return useMutation<ResponseOf<E>, ApiError, CallInput<E>>({
    mutationFn: (input: CallInput<E>) => callApi(endpoint, input),
    ...options,
    onSuccess: (...args) => {
      if (invalidate) void invalidateAfter(client, endpoint);
      return onSuccess?.(...args);
    },
  });
};

export const prefetchApi = <E extends EndpointDefinition>(
  client: QueryClient,
  endpoint: E,
  input: CallInput<E> = {} as CallInput<E>,
) => client.fetchQuery({ ...apiQueryOptions(endpoint, input), staleTime: 30_000 });
