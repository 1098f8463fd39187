import { afterFirstScreen } from './first-screen.ts';
import { loadChunk, preloadWhenIdle } from './load-chunk.ts';

/*
 * Parts of the files UI that the first screen of /login and /files does without: each is a chunk
 * of its own, fetched on first use and, once a logged-in page is idle, ahead of it
 * (preloadFilesUi). The settings routes, the viewers and the editor load on demand elsewhere.
 */

/** Every dialog of the app (info, delete, rename, move, copy, download, new, help, messages). */
export const loadDialogs = () => loadChunk(() => import('../features/dialogs/DialogView.tsx'));

/** Moving and copying entries: drops onto folders and pastes. */
export const loadTransfers = () => loadChunk(() => import('../features/operations/transfer.ts'));

/** The upload queue and what feeds it (tus-js-client comes later, with the first file). */
export const loadUploads = () => loadChunk(() => import('../features/upload/upload-actions.ts'));

/** The upload panel, shown from the first upload on. */
export const loadUploadPanel = () => loadChunk(() => import('../features/upload/UploadPanel.tsx'));

/**
 * Fetches the chunks above once the first screen is shown and the page is idle; returns a
 * function that cancels it.
 */
export function preloadFilesUi(): () => void {
  let cancel: (() => void) | undefined;
  let cancelled = false;
  void afterFirstScreen().then(() => {
    if (!cancelled) {
      cancel = preloadWhenIdle([loadDialogs, loadTransfers, loadUploads, loadUploadPanel]);
    }
  });
  return () => {
    cancelled = true;
    cancel?.();
  };
}
