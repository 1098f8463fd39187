import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SharedWithMe } from '@cabinet/protocol';
import { apiRequest } from '../client.ts';
import { resourceKeys } from '../resources/resource-keys.ts';
import { teamKeys } from './team-keys.ts';

/** POST /api/shared-with-me/{kind}/{id}/leave: the grant leaves the user's view. */
export function useSharedLeaveMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ kind, id }: Pick<SharedWithMe, 'kind' | 'id'>) => {
      await apiRequest(`/shared-with-me/${kind}/${id}/leave`, { method: 'POST' });
    },
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: teamKeys.sharedWithMe });
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all });
    },
  });
}
