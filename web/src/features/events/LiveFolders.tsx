import { useLiveFolders } from './use-live-folders.ts';

/** Keeps the folders on screen in step with the disk (docs/jobs.md); renders nothing. */
export function LiveFolders() {
  useLiveFolders();
  return null;
}
