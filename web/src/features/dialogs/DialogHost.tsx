import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useDialogStore } from '../../stores/dialog-store.ts';
import { DeleteDialog } from '../operations/DeleteDialog.tsx';
import { DownloadDialog } from '../operations/DownloadDialog.tsx';
import { InfoDialog } from '../operations/InfoDialog.tsx';
import { bindQueryClient } from '../operations/operation-context.ts';
import { RenameDialog } from '../operations/RenameDialog.tsx';
import { ReplaceDialog } from '../operations/ReplaceDialog.tsx';
import { TransferDialog } from '../operations/TransferDialog.tsx';
import '../operations/operations.css';
import { HelpDialog } from './HelpDialog.tsx';
import { MessageDialog } from './MessageDialog.tsx';
import { NewEntryDialog } from './NewEntryDialog.tsx';

const dialogKeys = new WeakMap<object, number>();
let lastDialogKey = 0;

/** A React key per open request, so a dialog opened anew never keeps the previous one's state. */
function dialogKey(dialog: object): number {
  let key = dialogKeys.get(dialog);
  if (key === undefined) {
    key = ++lastDialogKey;
    dialogKeys.set(dialog, key);
  }
  return key;
}

/**
 * Renders the one open dialog (SPEC.md, "Dialogs": one at a time). Each dialog is keyed by the
 * request that opened it, so opening the same dialog again starts it afresh.
 */
export function DialogHost() {
  const dialog = useDialogStore((s) => s.dialog);
  const queryClient = useQueryClient();
  useEffect(() => bindQueryClient(queryClient), [queryClient]);

  // Closes this request's dialog only: an operation finishing late must not close another one.
  const close = useCallback(() => {
    const store = useDialogStore.getState();
    if (store.dialog === dialog) store.close();
  }, [dialog]);

  if (!dialog) return null;
  switch (dialog.name) {
    case 'help':
      return <HelpDialog onClose={close} />;
    case 'newDir':
      return <NewEntryDialog isDir onClose={close} />;
    case 'newFile':
      return <NewEntryDialog isDir={false} onClose={close} />;
    case 'info':
      return <InfoDialog key={dialogKey(dialog)} dialog={dialog} onClose={close} />;
    case 'delete':
      return <DeleteDialog key={dialogKey(dialog)} dialog={dialog} onClose={close} />;
    case 'rename':
      return <RenameDialog key={dialogKey(dialog)} dialog={dialog} onClose={close} />;
    case 'move':
    case 'copy':
      return (
        <TransferDialog
          key={dialogKey(dialog)}
          action={dialog.name}
          dialog={dialog}
          onClose={close}
        />
      );
    case 'download':
      return <DownloadDialog key={dialogKey(dialog)} dialog={dialog} onClose={close} />;
    case 'replace':
    case 'replace-rename':
      return (
        <ReplaceDialog
          key={dialogKey(dialog)}
          offersRename={dialog.name === 'replace-rename'}
          message={dialog.message}
          onAnswer={(answer) => {
            dialog.onAnswer?.(answer);
            close();
          }}
        />
      );
    case 'error':
    case 'success':
      return <MessageDialog kind={dialog.name} message={dialog.message ?? ''} onClose={close} />;
    default:
      return null;
  }
}
