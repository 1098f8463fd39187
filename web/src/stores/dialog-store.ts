import type { ResourceItem } from '@cabinet/protocol';
import { create } from 'zustand';
import { shownPathname } from '../app/history.ts';

/** Dialogs; only one is open at a time. */
export type DialogName =
  | 'help'
  | 'newFile'
  | 'newDir'
  | 'info'
  | 'delete'
  | 'rename'
  | 'move'
  | 'copy'
  | 'download'
  | 'replace'
  | 'replace-rename'
  | 'conflict'
  | 'share'
  | 'upload'
  | 'success'
  | 'error';

/** What a dialog acts on and what happens when it is done. */
export interface DialogOptions {
  /** Text of the error and success dialogs. */
  message?: string;
  /**
   * The entries a dialog acts on (info, delete, rename, move, copy, download, share). Absent:
   * the listing's selection, or the folder on screen when nothing is selected.
   */
  targets?: ResourceItem[];
  /**
   * Called after the dialog's action succeeded, instead of the dialog's default follow-up (a
   * listing reload). Rename passes the entry's new scope path; delete passes nothing.
   */
  onDone?: (newPath?: string) => void;
  /** Answer of a question dialog (replace, replace-rename): called with the user's choice. */
  onAnswer?: (answer: 'replace' | 'rename' | 'cancel') => void;
  /** The clash question of a move or copy: the first clashing name and how many clash. */
  conflict?: { firstName: string; clashCount: number };
  /** Answer of the clash question of a move or copy; null is Cancel. */
  onConflictAnswer?: (
    answer: { choice: 'replace' | 'skip' | 'keep-both'; applyToAll: boolean } | null,
  ) => void;
  /** False when the user may not replace (no modify permission): the clash prompt hides Replace. */
  offersReplace?: boolean;
}

export interface OpenDialog extends DialogOptions {
  name: DialogName;
  /** The address bar's path when the dialog opened: a route change away from it closes it. */
  openedOn: string;
}

interface DialogState {
  dialog: OpenDialog | null;
  /** Opens a dialog, replacing any other one. A string second argument is the message. */
  open(name: DialogName, options?: string | DialogOptions): void;
  /** Closes the dialog and clears its message. */
  close(): void;
}

/** The one open dialog. A route change closes it unless it is a success dialog. */
export const useDialogStore = create<DialogState>()((set) => ({
  dialog: null,
  open(name, options) {
    const extra = typeof options === 'string' ? { message: options } : (options ?? {});
    set({ dialog: { name, ...extra, openedOn: shownPathname() } });
  },
  close() {
    set({ dialog: null });
  },
}));
