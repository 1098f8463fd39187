import i18next from 'i18next';
import { notifySuccess, useNotificationStore } from '../../stores/notification-store.ts';

// What an operation says when it is done (success notices hide after 1000 ms)
// and, while a move or copy of many or big entries runs, how far it got, so the screen never
// looks frozen.

/** The folder's name as people know it: its last segment, or "My files" for the scope root. */
export function folderLabel(folder: string): string {
  const name = folder.split('/').filter(Boolean).pop();
  return name ?? i18next.t('sidebar.myFiles');
}

/** "“a.txt”" for one entry, "3 items" for more. */
function subject(names: readonly string[]): string {
  return names.length === 1
    ? i18next.t('feedback.one', { name: names[0] })
    : i18next.t('feedback.many', { count: names.length });
}

/** After copy or cut onto the app's clipboard: what is on it and what to do next. */
export function notifyClipboard(action: 'copy' | 'cut', names: readonly string[]): void {
  const key = action === 'copy' ? 'feedback.copiedToClipboard' : 'feedback.cutToClipboard';
  notifySuccess(i18next.t(key, { what: subject(names) }));
}

/** After a move or copy: "3 items moved to Photos". */
export function notifyTransferred(
  action: 'copy' | 'move',
  names: readonly string[],
  folder: string,
): void {
  const key = action === 'copy' ? 'feedback.copied' : 'feedback.moved';
  notifySuccess(i18next.t(key, { what: subject(names), folder: folderLabel(folder) }));
}

/** After a rename: "Renamed to “b.txt”". */
export function notifyRenamed(newName: string): void {
  notifySuccess(i18next.t('feedback.renamed', { name: newName }));
}

/**
 * A notice that stays while a move or copy runs and counts the entries done; `finish` removes it.
 * It appears only when the work is still running after a moment, so quick operations show just
 * their success notice.
 */
export function trackTransfer(
  action: 'copy' | 'move',
  total: number,
  folder: string,
): { step(): void; finish(): void } {
  const store = useNotificationStore.getState();
  const key = action === 'copy' ? 'feedback.copying' : 'feedback.moving';
  const message = i18next.t(key, { folder: folderLabel(folder) });
  let done = 0;
  let id: number | null = null;
  const timer = setTimeout(() => {
    id = store.notify('info', message, { duration: null, progress: { done, total } });
  }, PROGRESS_DELAY_MS);
  return {
    step() {
      done += 1;
      if (id !== null) store.update(id, { progress: { done, total } });
    },
    finish() {
      clearTimeout(timer);
      if (id !== null) store.dismiss(id);
    },
  };
}

/** How long a move or copy runs before its progress notice appears. */
const PROGRESS_DELAY_MS = 400;
