import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as z from 'zod/mini';
import { AppPassword, AppPasswordCreated, type AppPasswordCreate } from '@cabinet/protocol';
import { apiJson, apiRequest } from '../client.ts';

const AppPasswordList = z.array(AppPassword);
const keyOf = (userId: number) => ['app-passwords', userId] as const;

/** GET /api/app-passwords[?user=id]: a user's app passwords (self or admin). */
export function useAppPasswordsQuery(userId: number, own: boolean) {
  return useQuery({
    queryKey: keyOf(userId),
    queryFn: ({ signal }) =>
      apiJson(own ? '/app-passwords' : `/app-passwords?user=${userId}`, AppPasswordList, {
        signal,
      }),
    staleTime: 0,
  });
}

/** POST /api/app-passwords: the reply holds the password, shown once. */
export function useAppPasswordCreateMutation(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AppPasswordCreate) =>
      apiJson('/app-passwords', AppPasswordCreated, { method: 'POST', json: body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: keyOf(userId) }),
  });
}

/** DELETE /api/app-passwords/{id}: it stops working from the next request. */
export function useAppPasswordRevokeMutation(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => {
      await apiRequest(`/app-passwords/${encodeURIComponent(id)}`, { method: 'DELETE' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: keyOf(userId) }),
  });
}
