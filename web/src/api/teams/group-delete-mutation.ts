import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../client.ts';
import { teamKeys } from './team-keys.ts';

/** DELETE /api/groups/{id}: its members lose what was granted to the group at once. */
export function useGroupDeleteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest(`/groups/${id}`, { method: 'DELETE' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.groups }),
  });
}
