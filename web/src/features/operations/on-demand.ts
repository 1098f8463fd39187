// What code loaded on demand may use of the file operations: the dialogs (for the dialog view),
// the replace question (for the upload queue) and the targets of a dialog (for the share dialog).
// Import this only from code that is itself loaded on demand: a static import from the first
// screen would pull all of it into the initial bundle.
export { askReplace, type ReplaceAnswer } from './ask-replace.ts';
export { ConflictDialog } from './ConflictDialog.tsx';
export { DeleteDialog } from './DeleteDialog.tsx';
export { DownloadDialog } from './DownloadDialog.tsx';
export { InfoDialog } from './InfoDialog.tsx';
export { RenameDialog } from './RenameDialog.tsx';
export { ReplaceDialog } from './ReplaceDialog.tsx';
export { TransferDialog } from './TransferDialog.tsx';
export { useDialogTargets } from './use-dialog-targets.ts';
