import type { EndpointDefinition, ResponseOf } from '@gridbot/contracts';
import {
  type QueryClient,
  type UseMutationOptions,
  type UseQueryOptions,
  useMutation,
  useQuery,
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

/** An action through its contract; the variables are the call's inputs. */
export const useApiMutation = <E extends EndpointDefinition>(
  endpoint: E,
  options: Omit<UseMutationOptions<ResponseOf<E>, ApiError, CallInput<E>>, 'mutationFn'> = {},
) => useMutation({ mutationFn: (input: CallInput<E>) => callApi(endpoint, input), ...options });

export const prefetchApi = <E extends EndpointDefinition>(
  client: QueryClient,
  endpoint: E,
  input: CallInput<E> = {} as CallInput<E>,
) => client.fetchQuery({ ...apiQueryOptions(endpoint, input), staleTime: 30_000 });
