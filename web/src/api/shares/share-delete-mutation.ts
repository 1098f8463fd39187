import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../client.ts';
import { shareKeys } from './share-keys.ts';

/** DELETE /api/share/{hash}: removes a link; the lists of links are read again afterwards. */
export function useShareDeleteMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (hash: string) => {
      await apiRequest(`/share/${encodeURIComponent(hash)}`, { method: 'DELETE' });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: shareKeys.all }),
  });
}
