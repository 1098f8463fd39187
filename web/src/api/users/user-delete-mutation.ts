import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../client.ts';
import { userKeys } from './user-keys.ts';

/** Which user to delete and, with json auth, the acting admin's password. */
export interface UserDeleteVariables {
  id: number;
  currentPassword?: string;
}

/** DELETE /api/users/{id}; the body is required by the server (at least `{}`). */
export function useUserDeleteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, currentPassword }: UserDeleteVariables) => {
      const body = currentPassword === undefined ? {} : { current_password: currentPassword };
      await apiRequest(`/users/${id}`, { method: 'DELETE', json: body });
    },
    onSuccess: (_result, { id }) => {
      queryClient.removeQueries({ queryKey: userKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: userKeys.list() });
    },
  });
}
