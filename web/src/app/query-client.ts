import { MutationCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../api/api-error.ts';
import { notifyError } from '../stores/notification-store.ts';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** The caller shows the failure itself; skip the default error notification. */
      handlesErrors?: boolean;
    };
  }
}

/**
 * Server state lives here. Queries never retry a reply the server meant (4xx); page-level query
 * failures become error pages where they are rendered. Mutations show the server's message in an
 * error notification unless the caller handles it (SPEC.md section 8).
 */
function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        retry: (count, error) =>
          count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      },
    },
    mutationCache: new MutationCache({
      onError(error, _variables, _context, mutation) {
        if (mutation.meta?.handlesErrors) return;
        notifyError(error.message);
      },
    }),
  });
}

/**
 * The app's one query client. Operations and uploads outlive the components that start them, so
 * they reach the cache through this module rather than through React context.
 */
export const queryClient = createQueryClient();
