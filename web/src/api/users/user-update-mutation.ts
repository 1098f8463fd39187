import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserWriteRequest } from '@cabinet/protocol';
import { apiRequest, renewSession } from '../client.ts';
import { session } from '../session-link.ts';
import { userKeys } from './user-keys.ts';

/** A user update: the fields named in `which` are taken from `data`. */
export interface UserUpdateVariables {
  id: number;
  which: string[];
  data: UserWriteRequest['data'];
  /** The acting user's own password, which the server asks for before sensitive changes. */
  currentPassword?: string;
}

/**
 * PUT /api/users/{id} with the what/which envelope. Updating oneself renews the token, so the
 * session (language, preferences) reflects the change at once. `action` tags its error
 * notification (see the query client's mutation meta); `handlesErrors` leaves the failure to the
 * caller (a form that shows it on its field).
 */
export function useUserUpdateMutation(action?: string, handlesErrors?: boolean) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { action, handlesErrors },
    mutationFn: async ({ id, which, data, currentPassword }: UserUpdateVariables) => {
      const body: UserWriteRequest = { what: 'user', which, data: { ...data, id } };
      if (currentPassword !== undefined) body.current_password = currentPassword;
      await apiRequest(`/users/${id}`, { method: 'PUT', json: body });
    },
    onSuccess: async (_result, { id }) => {
      if (session().userId() === id) await renewSession();
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}
