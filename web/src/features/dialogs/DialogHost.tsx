import { useDialogStore } from '../../stores/dialog-store.ts';
import { HelpDialog } from './HelpDialog.tsx';
import { MessageDialog } from './MessageDialog.tsx';
import { NewEntryDialog } from './NewEntryDialog.tsx';

/**
 * Renders the one open dialog. Dialogs that act on a selection (delete, rename, move, copy,
 * share, …) are added here by the features that own them.
 */
export function DialogHost() {
  const dialog = useDialogStore((s) => s.dialog);
  const close = useDialogStore((s) => s.close);
  if (!dialog) return null;
  switch (dialog.name) {
    case 'help':
      return <HelpDialog onClose={close} />;
    case 'newDir':
      return <NewEntryDialog isDir onClose={close} />;
    case 'newFile':
      return <NewEntryDialog isDir={false} onClose={close} />;
    case 'error':
    case 'success':
      return <MessageDialog kind={dialog.name} message={dialog.message ?? ''} onClose={close} />;
    default:
      return null;
  }
}
