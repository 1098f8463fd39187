import type { Resource, ResourceItem } from '@cabinet/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { resourceKeys } from '../../api/resources/resource-keys.ts';
import type { OpenDialog } from '../../stores/dialog-store.ts';
import { useSelectionStore } from '../../stores/selection-store.ts';
import { currentFolderOf, scopePathFromRoute } from '../../paths/file-paths.ts';

/**
 * The entries a dialog acts on, fixed when it opens: its `targets`, else the listing's
 * selection, else what is on screen (the folder, or the file being viewed). Empty only when
 * nothing on screen is loaded yet.
 */
export function useDialogTargets(dialog: OpenDialog): ResourceItem[] {
  const queryClient = useQueryClient();
  const { pathname } = useLocation();
  const [targets] = useState(() => {
    if (dialog.targets?.length) return dialog.targets;
    const selected = useSelectionStore.getState().items;
    if (selected.length > 0) return selected;
    const cached = (path: string) => queryClient.getQueryData<Resource>(resourceKeys.detail(path));
    const shown = cached(scopePathFromRoute(pathname)) ?? cached(currentFolderOf(pathname));
    return shown ? [shown] : [];
  });
  return targets;
}
