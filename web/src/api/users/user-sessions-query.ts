import { useQuery } from '@tanstack/react-query';
import { SessionList } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { userKeys } from './user-keys.ts';

/** GET /api/users/{id}/sessions: the user's active sessions (self or admin). */
export function useUserSessionsQuery(id: number) {
  return useQuery({
    queryKey: userKeys.sessions(id),
    queryFn: ({ signal }) => apiJson(`/users/${id}/sessions`, SessionList, { signal }),
    staleTime: 0,
  });
}
