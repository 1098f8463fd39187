import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../client.ts';
import { encodePath } from '../encode-path.ts';

/** DELETE /api/resources/{path}: removes a file or a whole folder. */
export async function deleteResource(path: string): Promise<void> {
  await apiRequest(`/resources${encodePath(path)}`, { method: 'DELETE' });
}

/** What a delete did: the paths that are gone and the first failure, if any. */
export interface ResourceDeleteResult {
  deleted: string[];
  error: Error | null;
}

/**
 * Deletes several entries in parallel. Every path is tried even
 * when one fails, so the result says what is gone and what failed. The caller reloads the
 * listings once it has left any view of a deleted entry.
 */
export function useResourceDeleteMutation() {
  return useMutation({
    mutationFn: async (paths: string[]): Promise<ResourceDeleteResult> => {
      const results = await Promise.allSettled(paths.map((path) => deleteResource(path)));
      const deleted = paths.filter((_, i) => results[i]!.status === 'fulfilled');
      const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      const error = failure
        ? failure.reason instanceof Error
          ? failure.reason
          : new Error(String(failure.reason))
        : null;
      return { deleted, error };
    },
    meta: { handlesErrors: true },
  });
}
