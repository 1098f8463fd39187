import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  RESTORE_CONFLICT,
  TrashList,
  TrashRestoreReply,
  TrashSettings,
  type TrashRestoreBody,
} from '@cabinet/protocol';
import { ApiError } from './api-error.ts';
import { apiJson, apiRequest, apiUrl } from './client.ts';

/** Whose trash the screen shows: one's own (undefined), one user's, or every user's. */
export type TrashOwner = number | 'all' | undefined;

/** Query keys of the trash (docs/trash.md). */
export const trashKeys = {
  all: ['trash'] as const,
  list: (owner: TrashOwner) => ['trash', 'list', owner ?? 'own'] as const,
  settings: ['trash', 'settings'] as const,
};

function listPath(owner: TrashOwner): string {
  if (owner === 'all') return '/trash?all=1';
  if (owner === undefined) return '/trash';
  return `/trash?user=${owner}`;
}

/** GET /api/trash: deleted items, newest first. */
export function useTrashQuery(owner: TrashOwner) {
  return useQuery({
    queryKey: trashKeys.list(owner),
    queryFn: ({ signal }) => apiJson(listPath(owner), TrashList, { signal }),
    staleTime: 0,
  });
}

const settingsQuery = {
  queryKey: trashKeys.settings,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiJson('/trash/settings', TrashSettings, { signal }),
};

/** GET /api/trash/settings: whether deletes go to the trash, retention and cap. */
export function useTrashSettingsQuery() {
  return useQuery(settingsQuery);
}

/**
 * The trash settings as any signed-in user reads them (cached; asked once when not known yet):
 * whether deletes go to the trash and for how long it keeps them. Null when they cannot be read.
 */
export async function trashSettingsOf(client: QueryClient): Promise<TrashSettings | null> {
  try {
    return await client.ensureQueryData(settingsQuery);
  } catch {
    return null;
  }
}

/** The URL that opens (inline) a trashed file; the auth cookie authorises it. */
export function trashRawUrl(id: string, inline: boolean): string {
  return apiUrl(`/trash/${encodeURIComponent(id)}/raw${inline ? '?inline=true' : ''}`);
}

/** True when a restore was refused because the original place is taken (409 restore_conflict). */
export function isRestoreConflict(error: unknown): boolean {
  return (
    error instanceof ApiError && error.status === 409 && error.detail.includes(RESTORE_CONFLICT)
  );
}

/** POST /api/trash/{id}/restore; a clash rejects with an error isRestoreConflict recognises. */
export async function restoreTrashItem(id: string, body: TrashRestoreBody = {}) {
  return apiJson(`/trash/${encodeURIComponent(id)}/restore`, TrashRestoreReply, {
    method: 'POST',
    json: body,
  });
}

/** Restore, delete for good and empty, each reloading the trash (and the files) afterwards. */
export function useTrashMutations() {
  const client = useQueryClient();
  const settle = () => {
    void client.invalidateQueries({ queryKey: trashKeys.all });
    void client.invalidateQueries({ queryKey: ['resources'] });
  };
  const meta = { handlesErrors: true };
  return {
    restore: useMutation({
      mutationFn: ({ id, body }: { id: string; body?: TrashRestoreBody }) =>
        restoreTrashItem(id, body),
      onSettled: settle,
      meta,
    }),
    remove: useMutation({
      mutationFn: async (id: string) => {
        await apiRequest(`/trash/${encodeURIComponent(id)}`, { method: 'DELETE' });
      },
      onSettled: settle,
      meta,
    }),
    empty: useMutation({
      mutationFn: async () => {
        await apiRequest('/trash', { method: 'DELETE' });
      },
      onSettled: settle,
      meta,
    }),
  };
}
