import { useQuery } from '@tanstack/react-query';
import { GroupList } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { teamKeys } from './team-keys.ts';

/** GET /api/groups (administrators): every group with its member ids. */
export function useGroupsQuery({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: teamKeys.groups,
    queryFn: ({ signal }) => apiJson('/groups', GroupList, { signal }),
    enabled,
  });
}
