import { create } from 'zustand';

/** Dialogs of SPEC.md "Dialogs"; only one is open at a time. */
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
  | 'share'
  | 'upload'
  | 'success'
  | 'error';

export interface OpenDialog {
  name: DialogName;
  /** Text of the error and success dialogs. */
  message?: string;
}

interface DialogState {
  dialog: OpenDialog | null;
  /** Opens a dialog, replacing any other one. */
  open(name: DialogName, message?: string): void;
  /** Closes the dialog and clears its message. */
  close(): void;
}

/** The one open dialog. A route change closes it unless it is a success dialog (SPEC.md section 4). */
export const useDialogStore = create<DialogState>()((set) => ({
  dialog: null,
  open(name, message) {
    set({ dialog: message === undefined ? { name } : { name, message } });
  },
  close() {
    set({ dialog: null });
  },
}));
