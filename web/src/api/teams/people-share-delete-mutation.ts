import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../client.ts';
import { teamKeys } from './team-keys.ts';

/** DELETE /api/people-shares/{id}: revokes a share; its recipients lose it on their next request. */
export function usePeopleShareDeleteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: number) => {
      await apiRequest(`/people-shares/${id}`, { method: 'DELETE' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.peopleShares }),
  });
}
