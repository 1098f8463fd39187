import { useQuery } from '@tanstack/react-query';
import { UserList } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { userKeys } from './user-keys.ts';

/** GET /api/users (administrators): every user, by id. */
export function useUsersQuery() {
  return useQuery({
    queryKey: userKeys.list(),
    queryFn: ({ signal }) => apiJson('/users', UserList, { signal }),
  });
}
