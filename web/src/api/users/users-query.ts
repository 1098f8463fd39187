import { useQuery } from '@tanstack/react-query';
import { User } from '@cabinet/protocol';
import * as z from 'zod/mini';
import { apiJson } from '../client.ts';
import { userKeys } from './user-keys.ts';

const UserList = z.array(User);

/** GET /api/users (administrators): every user, by id. */
export function useUsersQuery() {
  return useQuery({
    queryKey: userKeys.list(),
    queryFn: ({ signal }) => apiJson('/users', UserList, { signal }),
  });
}
