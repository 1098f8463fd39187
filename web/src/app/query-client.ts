import { MutationCache, QueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { ApiError } from '../api/api-error.ts';
import { onReconnect } from '../api/connection-monitor.ts';
import { notifyFailure, notifySuccess } from '../stores/notification-store.ts';

declare module '@tanstack/react-query' {
  interface Register {
    mutationMeta: {
      /** The caller shows the failure itself; skip the default error notification. */
      handlesErrors?: boolean;
      /** Tags the error notification, so that the caller's success notice of it clears it. */
      action?: string;
    };
  }
}

/**
 * Server state lives here. Queries never retry a reply the server meant (4xx); page-level query
 * failures become error pages where they are rendered. Mutations show the failure in words for
 * people in an error notification unless the caller handles it.
 */
function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        // No retry of a refusal (4xx), nor of a call without reply: the connection monitor
        // reloads everything when the server is back, and the banner says what is going on.
        retry: (count, error) =>
          count < 2 &&
          !(
            error instanceof ApiError &&
            (error.kind === 'network' || (error.status >= 400 && error.status < 500))
          ),
      },
    },
    mutationCache: new MutationCache({
      onError(error, _variables, _context, mutation) {
        if (mutation.meta?.handlesErrors) return;
        notifyFailure(error, undefined, mutation.meta?.action);
      },
    }),
  });
}

/**
 * The app's one query client. Operations and uploads outlive the components that start them, so
 * they reach the cache through this module rather than through React context.
 */
export const queryClient = createQueryClient();

// Back from a network cut: say so, and read again whatever failed or went stale meanwhile.
onReconnect(() => {
  notifySuccess(i18next.t('offline.back'));
  void queryClient.invalidateQueries();
});
