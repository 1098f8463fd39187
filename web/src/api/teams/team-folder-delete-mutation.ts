import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../client.ts';
import { resourceKeys } from '../resources/resource-keys.ts';
import { teamKeys } from './team-keys.ts';

/** DELETE /api/team-folders/{id}: the grant ends; the folder and its files stay in the root. */
export function useTeamFolderDeleteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest(`/team-folders/${id}`, { method: 'DELETE' });
    },
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: teamKeys.teamFolders });
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all });
    },
  });
}
