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
        // Only the request guard's refusal is worth repeating, after its window.
        retry: (failures, error) => isApiError(error) && error.status === 429 && failures < 2,
        retryDelay: 2000,
      },
      mutations: { retry: false },
    },
  });

export const App = ({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) => (
  <QueryClientProvider client={queryClient}>
    <RouterProvider router={router} />
  </QueryClientProvider>
);
