import { useQuery } from '@tanstack/react-query';
import { User } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { userKeys } from './user-keys.ts';

/** GET /api/users/{id}: one user (disabled while `id` is undefined, e.g. for a new user). */
export function useUserQuery(id: number | undefined) {
  return useQuery({
    queryKey: userKeys.detail(id ?? 0),
    queryFn: ({ signal }) => apiJson(`/users/${id}`, User, { signal }),
    enabled: id !== undefined,
  });
}
