import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../client.ts';
import { userKeys } from './user-keys.ts';

/** One session of a user, or every other one when `sessionId` is omitted. */
export interface SessionEndVariables {
  userId: number;
  sessionId?: string;
}

/** DELETE /api/users/{id}/sessions[/{sid}]: the ended sessions' tokens answer 401 at once. */
export function useSessionEndMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ userId, sessionId }: SessionEndVariables) => {
      const tail = sessionId ? `/${encodeURIComponent(sessionId)}` : '';
      await apiRequest(`/users/${userId}/sessions${tail}`, { method: 'DELETE' });
    },
    onSettled: (_result, _error, { userId }) =>
      queryClient.invalidateQueries({ queryKey: userKeys.sessions(userId) }),
  });
}
