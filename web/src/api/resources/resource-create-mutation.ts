import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../client.ts';
import { encodePath } from '../encode-path.ts';
import { resourceKeys } from './resource-keys.ts';

/** What to create: a path ending with "/" makes a folder, anything else an empty file. */
export interface ResourceCreateVariables {
  path: string;
}

/**
 * POST /api/resources/{path} without override: an existing name answers 409 instead of being
 * replaced. The listings are refreshed afterwards.
 */
export function useResourceCreateMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ path }: ResourceCreateVariables) => {
      await apiRequest(`/resources${encodePath(path)}`, { method: 'POST', body: '' });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: resourceKeys.all }),
    meta: { handlesErrors: true },
  });
}
