import { useQuery } from '@tanstack/react-query';
import { SharedWithMeList } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { teamKeys } from './team-keys.ts';

/**
 * GET /api/shared-with-me: the team folders and shares with people the user receives, with where
 * each is in their view. The `shared` event re-reads it (api/events.ts).
 */
export function useSharedWithMeQuery({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: teamKeys.sharedWithMe,
    queryFn: ({ signal }) => apiJson('/shared-with-me', SharedWithMeList, { signal }),
    enabled,
  });
}
