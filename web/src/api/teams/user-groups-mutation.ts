import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserGroupsRequest } from '@cabinet/protocol';
import { apiRequest } from '../client.ts';
import { teamKeys } from './team-keys.ts';

/** PUT /api/users/{id}/groups: the user's groups, replacing the list. */
export function useUserGroupsMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ userId, groups }: { userId: number; groups: number[] }) => {
      const body: UserGroupsRequest = { groups };
      await apiRequest(`/users/${userId}/groups`, { method: 'PUT', json: body });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.groups }),
  });
}
