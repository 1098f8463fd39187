import { transferResource } from '../../api/resources/resource-transfer.ts';
import { useClipboardStore, type ClipboardItem } from '../../stores/clipboard-store.ts';
import { useDialogStore } from '../../stores/dialog-store.ts';
import { notifyFailure } from '../../stores/notification-store.ts';
import { isSamePath, parentFolder } from '../../paths/file-paths.ts';
import { askConflict, type ConflictAnswer } from './ask-conflict.ts';
import { startFileJob } from '../../api/jobs/file-jobs.ts';
import { ApiError } from '../../api/api-error.ts';
import { waitForJob } from '../jobs/index.ts';
import { notifyTransferred, trackTransfer } from './operation-feedback.ts';
import {
  fetchFolderFresh,
  folderOnScreen,
  forgetSelected,
  reloadListings,
  showPath,
} from './operation-context.ts';

/** What happens after a transfer: open the destination or reload in place. */
export interface TransferOptions {
  /** "reload" keeps the view where it is (a paste, a drop onto a folder); default "navigate". */
  followUp?: 'navigate' | 'reload';
}

/** How a transfer ended. */
export type TransferOutcome = 'done' | 'cancelled' | 'failed';

/** Closes the move or copy dialog that started a transfer: the transfer goes on without it. */
function closePicker(): void {
  const { dialog, close } = useDialogStore.getState();
  if (dialog?.name === 'move' || dialog?.name === 'copy') close();
}

/** A folder path with its trailing slash. */
function asFolder(path: string): string {
  return path.endsWith('/') ? path : `${path}/`;
}

/**
 * Moves or copies entries into a folder (scope path): the destination
 * is listed first and a name clash asks replace-or-rename; a copy into the entries' own folder
 * always takes free names without asking; an entry moved to where it already is stays put. One
 * PATCH per entry, all at once. Afterwards a move opens the destination, a copy opens it unless
 * it is on screen (then the listing reloads). Failures are shown as an error notification.
 */
export async function transferItems(
  action: 'copy' | 'move',
  items: ClipboardItem[],
  destination: string,
  options: TransferOptions = {},
): Promise<TransferOutcome> {
  const folder = asFolder(destination);
  const staysPut = (item: ClipboardItem) => isSamePath(parentFolder(item.from), folder);
  let moving = action === 'move' ? items.filter((item) => !staysPut(item)) : items;
  if (moving.length === 0) return 'done';

  let taken: Set<string>;
  try {
    const listing = await fetchFolderFresh(folder);
    taken = new Set(listing.items?.map((entry) => entry.name));
  } catch (error) {
    closePicker();
    notifyFailure(error);
    return 'failed';
  }
  closePicker();
  const clashes = moving.filter((item) => !staysPut(item) && taken.has(item.name));
  let answer: ConflictAnswer | null = null;
  if (clashes.length > 0) {
    answer = await askConflict(clashes[0]!.name, clashes.length);
    if (answer === null) return 'cancelled';
  }

  // Copies into their own folder need a free name each: one PATCH per entry, as before. Every
  // other move or copy runs as a background job, followed in the Jobs panel (docs/jobs.md).
  if (!moving.some(staysPut)) {
    return transferAsJob(action, moving, folder, answer, clashes[0], options);
  }
  // Here the answer is for every clash: the entries that stay put are copies with free names.
  if (answer?.choice === 'skip') {
    const skipped = new Set(clashes);
    moving = moving.filter((item) => !skipped.has(item));
    if (moving.length === 0) return 'done';
  }
  const replace = answer?.choice === 'replace';
  const keepBoth = answer?.choice === 'keep-both';
  const progress = trackTransfer(action, moving.length, folder);
  const results = await Promise.allSettled(
    moving.map((item) =>
      transferResource({
        action: action === 'move' ? 'rename' : 'copy',
        from: item.from,
        to: `${folder}${item.name}`,
        override: replace && !staysPut(item),
        rename: keepBoth || staysPut(item),
      }).finally(() => progress.step()),
    ),
  );
  progress.finish();
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (action === 'move') {
    forgetSelected(moving.filter((_, i) => results[i]!.status === 'fulfilled').map((i) => i.from));
  }

  const onScreen = isSamePath(folderOnScreen(), folder);
  if (!failure && options.followUp !== 'reload' && !onScreen) await showPath(folder, true);
  void reloadListings();
  if (failure) {
    notifyFailure(failure.reason);
    return 'failed';
  }
  notifyTransferred(
    action,
    moving.map((item) => item.name),
    folder,
  );
  return 'done';
}

/**
 * A move or copy as one background job; resolves when it ended (or asks a question). An answer
 * for all clashes is the job's; an answer for the first clash only is that item's, and the job
 * asks about the others in the Jobs panel.
 */
async function transferAsJob(
  action: 'copy' | 'move',
  moving: ClipboardItem[],
  folder: string,
  answer: ConflictAnswer | null,
  firstClash: ClipboardItem | undefined,
  options: TransferOptions,
): Promise<TransferOutcome> {
  let job;
  try {
    const forAll = answer !== null && answer.applyToAll;
    const id = await startFileJob({
      kind: action,
      items: moving.map((item) => ({
        from: item.from,
        to: `${folder}${item.name}`,
        ...(answer && !forAll && item === firstClash ? { onConflict: answer.choice } : {}),
      })),
      onConflict: forAll ? answer.choice : 'ask',
    });
    job = await waitForJob(id);
  } catch (error) {
    notifyFailure(error);
    return 'failed';
  }
  if (action === 'move' && job.state === 'done') forgetSelected(moving.map((item) => item.from));
  const onScreen = isSamePath(folderOnScreen(), folder);
  if (job.state === 'done' && options.followUp !== 'reload' && !onScreen) {
    await showPath(folder, true);
  }
  void reloadListings();
  if (job.state === 'failed') {
    notifyFailure(job.error ? new ApiError(job.error.status, job.error.message) : undefined);
    return 'failed';
  }
  if (job.state === 'cancelled') return 'cancelled';
  // Waiting: the Jobs panel asks the question; the job goes on from there. A job that skipped
  // some items says so in the Jobs panel, with its counts, rather than naming them all as done.
  if (job.state === 'done' && job.skipped === 0) {
    notifyTransferred(
      action,
      moving.map((item) => item.name),
      folder,
    );
  }
  return 'done';
}

/**
 * Ctrl+V: pastes the clipboard into a folder and reloads it. From the folder the entries were
 * copied in, copies take free names; cut entries are already there, so nothing moves. A cut is
 * pasted once: its entries leave the clipboard as the move starts (the moved entries can show in
 * the folder before the move's job has ended, and a second Ctrl+V then would move them again onto
 * themselves), and come back to it if the move is cancelled (or the paste throws).
 */
export async function pasteClipboard(folder: string): Promise<void> {
  const { key, items, origin, clear, set } = useClipboardStore.getState();
  if (!key || items.length === 0) return;
  if (key === 'x') {
    clear();
    if (isSamePath(origin, folder)) return;
  }
  let outcome: TransferOutcome = 'cancelled';
  try {
    outcome = await transferItems(key === 'x' ? 'move' : 'copy', items, folder, {
      followUp: 'reload',
    });
  } finally {
    if (key === 'x' && outcome === 'cancelled') set(key, items, origin);
  }
}
