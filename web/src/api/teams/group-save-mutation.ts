import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GroupWriteRequest } from '@cabinet/protocol';
import { apiRequest } from '../client.ts';
import { userKeys } from '../users/user-keys.ts';
import { teamKeys } from './team-keys.ts';

/** A group to create (no id) or replace. */
export interface GroupSaveVariables {
  id?: number;
  group: GroupWriteRequest;
}

/**
 * POST /api/groups or PUT /api/groups/{id}. The form shows refusals (a taken name) on its field,
 * so no error notification doubles them.
 */
export function useGroupSaveMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { handlesErrors: true },
    mutationFn: async ({ id, group }: GroupSaveVariables) => {
      const path = id === undefined ? '/groups' : `/groups/${id}`;
      await apiRequest(path, { method: id === undefined ? 'POST' : 'PUT', json: group });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: teamKeys.groups });
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}
