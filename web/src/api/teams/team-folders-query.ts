import { useQuery } from '@tanstack/react-query';
import { TeamFolderList } from '@cabinet/protocol';
import { apiJson } from '../client.ts';
import { teamKeys } from './team-keys.ts';

/** GET /api/team-folders (administrators): every team folder with its grantees and access. */
export function useTeamFoldersQuery() {
  return useQuery({
    queryKey: teamKeys.teamFolders,
    queryFn: ({ signal }) => apiJson('/team-folders', TeamFolderList, { signal }),
  });
}
