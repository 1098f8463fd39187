import type { Resource } from '@cabinet/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { resourceKeys } from '../../api/resources/resource-keys.ts';
import { useUserUpdateMutation } from '../../api/users/user-update-mutation.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { viewModeOf, type ViewMode } from './listing-order.ts';
import {
  nextSortState,
  sortStateFromWire,
  sortStateToWire,
  type SortColumn,
  type SortState,
} from './sorting.ts';

/**
 * The view mode and sorting of the listing, both saved to the user ("Sorting"
 * and "View switch"). The choice shows at once; it is undone if the server refuses it (the failure
 * is notified by the mutation). The view mode comes back in the renewed token, the sorting with
 * the reloaded folder.
 */
export function useListingPreferences(folder: Resource) {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const update = useUserUpdateMutation();
  const [pendingView, setPendingView] = useState<ViewMode | null>(null);
  const [pendingSort, setPendingSort] = useState<SortState | null>(null);

  const viewMode = pendingView ?? viewModeOf(user?.viewMode);
  const sort = pendingSort ?? sortStateFromWire(folder.sorting);

  function setViewMode(mode: ViewMode) {
    if (!user) return;
    setPendingView(mode);
    update.mutate(
      { id: user.id, which: ['viewMode'], data: { viewMode: mode } },
      { onSettled: () => setPendingView(null) },
    );
  }

  function sortBy(column: SortColumn) {
    if (!user) return;
    const next = nextSortState(sort, column);
    setPendingSort(next);
    update.mutate(
      { id: user.id, which: ['sorting'], data: { sorting: sortStateToWire(next) } },
      {
        // The server sorts: reload the folder, then let its reply speak.
        onSuccess: () =>
          queryClient
            .invalidateQueries({ queryKey: resourceKeys.all })
            .finally(() => setPendingSort(null)),
        onError: () => setPendingSort(null),
      },
    );
  }

  return { viewMode, setViewMode, sort, sortBy };
}
