import type { ResourceItem } from '@cabinet/protocol';
import i18next from 'i18next';
import { ApiError } from '../../api/api-error.ts';
import { transferResource } from '../../api/resources/resource-transfer.ts';
import { notifyFailure } from '../../stores/notification-store.ts';
import { parentFolder } from '../../paths/file-paths.ts';
import { askReplace } from './ask-replace.ts';
import { freeName } from '../../paths/entry-name.ts';
import { notifyRenamed } from './operation-feedback.ts';
import {
  fetchFolderFresh,
  forgetSelected,
  isOnScreen,
  reloadListings,
  showPath,
} from './operation-context.ts';

/**
 * Renames an entry within its folder. A clash asks whether to
 * replace the other entry or take a free "name(N)" instead. Afterwards `onDone` gets the new
 * path; without it an entry on screen is reopened under its new name and a listing reloads.
 */
export async function renameEntry(
  item: ResourceItem,
  newName: string,
  onDone?: (newPath?: string) => void,
): Promise<void> {
  const folder = parentFolder(item.path);
  let target = `${folder}${newName}`;
  try {
    try {
      await transferResource({ action: 'rename', from: item.path, to: target });
    } catch (error) {
      if (!(error instanceof ApiError && error.kind === 'conflict')) throw error;
      const answer = await askReplace(
        'replace-rename',
        i18next.t('ops.clashOne', { name: newName }),
      );
      if (answer === 'cancel') return;
      if (answer === 'rename') {
        // The server picks the free name; work it out the same way to know where the entry went.
        const listing = await fetchFolderFresh(folder);
        target = `${folder}${freeName(newName, new Set(listing.items?.map((i) => i.name)))}`;
      }
      await transferResource({
        action: 'rename',
        from: item.path,
        to: `${folder}${newName}`,
        override: answer === 'replace',
        rename: answer === 'rename',
      });
    }
  } catch (error) {
    void reloadListings();
    notifyFailure(error);
    return;
  }
  forgetSelected([item.path]);
  notifyRenamed(target.slice(folder.length));
  // Leave the old path first: reloading it while it is on screen would show "not found".
  if (onDone) onDone(target);
  else if (isOnScreen(item.path)) await showPath(target, item.isDir);
  void reloadListings();
}
