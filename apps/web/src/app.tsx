import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { isApiError } from './api/api-error';
import type { AppRouter } from './router/router';

/** Reads stay fresh for 30 s: tab switches reuse the initial load instead of hitting rate limits. */
export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A failed section shows its error with a retry button instead of refetching on every visit.
        retryOnMount: false,
        // Only a rate-limit refusal is worth repeating by itself, after the longest window (2 s).
        retry: (failures, error) => isApiError(error) && error.status === 429 && failures < 2,
        retryDelay: 2500,
      },
      mutations: { retry: false },
    },
  });

export const App = ({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) => (
  <QueryClientProvider client={queryClient}>
    <RouterProvider router={router} />
  </QueryClientProvider>
);
