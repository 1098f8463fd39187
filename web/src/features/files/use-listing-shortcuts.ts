import { useEffect, useRef } from 'react';
import { loadTransfers } from '../../app/on-demand.ts';
import { useClipboardStore } from '../../stores/clipboard-store.ts';
import { useDialogStore } from '../../stores/dialog-store.ts';
import i18next from 'i18next';
import {
  notifyError,
  notifyFailure,
  useNotificationStore,
} from '../../stores/notification-store.ts';
import { notifyClipboard } from '../operations/index.ts';
import { useSelectionStore } from '../../stores/selection-store.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { hasPerm } from '../../auth/permissions.ts';

/** Whether a key press belongs to a text field (typing there must not trigger shortcuts). */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (!(target instanceof HTMLInputElement)) return false;
  return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color'].includes(
    target.type,
  );
}

/** Whether the user has text of the page selected (Ctrl+C then copies that text, as usual). */
function hasTextSelection(): boolean {
  const selection = window.getSelection();
  return !!selection && !selection.isCollapsed && selection.toString().trim() !== '';
}

/** An error toast, unless the same words are already on screen (a key pressed again and again). */
function sayOnce(message: string): void {
  const shown = useNotificationStore.getState().notifications;
  if (!shown.some((n) => n.kind === 'error' && n.message === message)) notifyError(message);
}

/**
 * The listing's keyboard shortcuts: Delete, Esc, F1, F2, Ctrl+A, Ctrl+C,
 * Ctrl+X, Ctrl+V and Ctrl+S. They are off while a dialog is open and while focus is in a text
 * field, and each one obeys the same permission gating as its toolbar button.
 */
export function useListingShortcuts(folder: string, selectAll: () => void): void {
  const user = useCurrentUser();
  const latest = useRef({ folder, selectAll, user });
  useEffect(() => {
    latest.current = { folder, selectAll, user };
  });

  useEffect(() => {
    function handleKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.altKey) return;
      const dialogs = useDialogStore.getState();
      if (dialogs.dialog || isTyping(event.target)) return;
      const { folder, selectAll, user } = latest.current;
      const selection = useSelectionStore.getState();
      const count = selection.items.length;
      const isCommand = event.ctrlKey || event.metaKey;

      const run = (action: () => void) => {
        event.preventDefault();
        action();
      };

      if (!isCommand) {
        if (event.shiftKey) return;
        switch (event.key) {
          case 'Delete':
            if (count === 0) return;
            // Without the permission the key still answers, in words: silence reads as broken.
            if (!hasPerm(user, 'delete')) {
              run(() => sayOnce(i18next.t('firstWeekAdmin.noDeletePermission')));
              return;
            }
            run(() => dialogs.open('delete'));
            return;
          case 'Escape':
            if (count > 0 || selection.multiple) run(() => selection.clear());
            return;
          case 'F1':
            run(() => dialogs.open('help'));
            return;
          case 'F2':
            if (count === 1 && hasPerm(user, 'rename')) run(() => dialogs.open('rename'));
            return;
        }
        return;
      }

      switch (event.key.toLowerCase()) {
        case 'a':
          run(selectAll);
          return;
        case 'c':
        case 'x': {
          const isCut = event.key.toLowerCase() === 'x';
          if (count === 0 || hasTextSelection()) return;
          if (isCut && !hasPerm(user, 'rename')) return;
          run(() => {
            const items = selection.items.map((item) => ({ from: item.path, name: item.name }));
            useClipboardStore.getState().set(isCut ? 'x' : 'c', items, folder);
            notifyClipboard(
              isCut ? 'cut' : 'copy',
              items.map((item) => item.name),
            );
          });
          return;
        }
        case 'v': {
          const clipboard = useClipboardStore.getState();
          if (clipboard.items.length === 0) return;
          if (!hasPerm(user, clipboard.key === 'x' ? 'rename' : 'create')) return;
          run(() => {
            loadTransfers()
              .then((transfers) => transfers.pasteClipboard(folder))
              .catch(notifyFailure);
          });
          return;
        }
        case 's':
          // Never the browser's "save page", even when downloads are not allowed.
          event.preventDefault();
          if (hasPerm(user, 'download')) dialogs.open('download');
          return;
      }
    }
    document.addEventListener('keydown', handleKey);
    return () => document.removeEventListener('keydown', handleKey);
  }, []);
}
