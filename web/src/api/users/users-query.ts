import { useQuery } from '@tanstack/react-query';
import { UserList } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { userKeys } from './user-keys.ts';

/**
 * GET /api/users (administrators): every user, by id. `enabled: false` asks nothing, for screens
 * that non-administrators see too (the server would answer 403).
 */
export function useUsersQuery({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: userKeys.list(),
    queryFn: ({ signal }) => apiJson('/users', UserList, { signal }),
    enabled,
  });
}
