import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UserWriteRequest } from '@cabinet/protocol';
import { apiRequest } from '../client.ts';
import { userKeys } from './user-keys.ts';

/** What creating a user needs: the user's fields and, with json auth, the admin's password. */
export interface UserCreateVariables {
  data: UserWriteRequest['data'];
  currentPassword?: string;
}

/**
 * POST /api/users (administrators). Resolves to the Location the server answered (the new
 * user's screen, e.g. /settings/users/7). Its one caller, the user form, shows refusals on the
 * field they concern, so no error notification doubles them.
 */
export function useUserCreateMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { handlesErrors: true },
    mutationFn: async ({ data, currentPassword }: UserCreateVariables) => {
      const body: UserWriteRequest = { what: 'user', which: [], data: { ...data, id: 0 } };
      if (currentPassword !== undefined) body.current_password = currentPassword;
      const response = await apiRequest('/users', { method: 'POST', json: body });
      return response.headers.get('Location') ?? '/settings/users';
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}
