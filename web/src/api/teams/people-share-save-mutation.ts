import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PeopleShareWriteRequest } from '@cabinet/protocol';
import { apiRequest } from '../client.ts';
import { teamKeys } from './team-keys.ts';

/** A share with people to create (no id, with the item's path) or change. */
export interface PeopleShareSaveVariables {
  id?: number;
  share: PeopleShareWriteRequest;
}

/** POST /api/people-shares or PUT /api/people-shares/{id}; who has access is read again. */
export function usePeopleShareSaveMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, share }: PeopleShareSaveVariables) => {
      const path = id === undefined ? '/people-shares' : `/people-shares/${id}`;
      await apiRequest(path, { method: id === undefined ? 'POST' : 'PUT', json: share });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamKeys.peopleShares }),
  });
}
