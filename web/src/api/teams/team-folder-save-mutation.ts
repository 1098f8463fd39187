import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TeamFolderWriteRequest } from '@cabinet/protocol';
import { apiRequest } from '../client.ts';
import { resourceKeys } from '../resources/resource-keys.ts';
import { teamKeys } from './team-keys.ts';

/** A team folder to create (no id) or replace. */
export interface TeamFolderSaveVariables {
  id?: number;
  folder: TeamFolderWriteRequest;
}

/**
 * POST /api/team-folders or PUT /api/team-folders/{id}. The form shows refusals (a path that is
 * not a folder, a bad name) itself. The admin may be a grantee: their listings are read again.
 */
export function useTeamFolderSaveMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { handlesErrors: true },
    mutationFn: async ({ id, folder }: TeamFolderSaveVariables) => {
      const path = id === undefined ? '/team-folders' : `/team-folders/${id}`;
      await apiRequest(path, { method: id === undefined ? 'POST' : 'PUT', json: folder });
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: teamKeys.teamFolders });
      await queryClient.invalidateQueries({ queryKey: resourceKeys.all });
    },
  });
}
