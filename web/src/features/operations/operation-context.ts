import type { Resource } from '@cabinet/protocol';
import { resourceKeys } from '../../api/resources/resource-keys.ts';
import { fetchResource } from '../../api/resources/resource-query.ts';
import { queryClient } from '../../app/query-client.ts';
import { navigateTo, shownPathname } from '../../app/history.ts';
import { baseURL } from '../../config/page-config.ts';
import { useSelectionStore } from '../../stores/selection-store.ts';
import {
  currentFolderOf,
  isSamePath,
  routeFromScopePath,
  scopePathFromRoute,
} from '../../paths/file-paths.ts';

// Operations outlive the dialog that starts them (a clash prompt replaces it, a paste has none),
// so they run outside React and reach the app's query cache through its module.

/** Reloads every listing and file view (the default follow-up of an operation). */
export function reloadListings(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: resourceKeys.all });
}

/** A folder's listing, read afresh (a clash check must not trust a cached one). */
export function fetchFolderFresh(folder: string): Promise<Resource> {
  return queryClient.fetchQuery({
    queryKey: resourceKeys.detail(folder),
    queryFn: ({ signal }) => fetchResource(folder, signal),
    staleTime: 0,
  });
}

/**
 * The route on screen, below the base URL: the history keeps the base URL in the path (only the
 * router's hooks strip it).
 */
function routePathname(): string {
  const pathname = shownPathname();
  if (!baseURL || !pathname.startsWith(baseURL)) return pathname;
  return pathname.slice(baseURL.length) || '/';
}

/** The scope path on screen (a folder ends with "/"), or null outside /files. */
export function pathOnScreen(): string | null {
  const pathname = routePathname();
  return pathname === '/files' || pathname.startsWith('/files/')
    ? scopePathFromRoute(pathname)
    : null;
}

/** The folder on screen, or the folder of the file on screen ("/" outside /files). */
export function folderOnScreen(): string {
  return currentFolderOf(routePathname());
}

/** Whether the view shows exactly this entry (a folder listing or a file view of it). */
export function isOnScreen(path: string): boolean {
  const shown = pathOnScreen();
  return shown !== null && isSamePath(shown, path);
}

/** Opens a scope path in the files view. */
export function showPath(path: string, isDir: boolean): Promise<void> {
  navigateTo(routeFromScopePath(path, isDir));
  return Promise.resolve();
}

/** Drops entries that no longer exist where they were from the listing's selection. */
export function forgetSelected(paths: readonly string[]): void {
  const selection = useSelectionStore.getState();
  const kept = selection.items.filter((item) => !paths.some((p) => isSamePath(p, item.path)));
  if (kept.length !== selection.items.length) selection.setItems(kept);
}
