import type { OpenDialog } from '../../stores/dialog-store.ts';
import {
  ConflictDialog,
  DeleteDialog,
  DownloadDialog,
  InfoDialog,
  RenameDialog,
  ReplaceDialog,
  TransferDialog,
} from '../operations/on-demand.ts';
import { ShareDialog } from '../share/index.ts';
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
 * The open dialog itself: every dialog of the app, in a chunk of their own that DialogHost
 * fetches on first use. Each dialog is keyed by the request that opened it, so opening the same
 * dialog again starts it afresh.
 */
export function DialogView({ dialog, onClose }: { dialog: OpenDialog; onClose: () => void }) {
  const close = onClose;
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
    case 'share':
      return <ShareDialog key={dialogKey(dialog)} dialog={dialog} onClose={close} />;
    case 'replace':
    case 'replace-rename':
      return (
        <ReplaceDialog
          key={dialogKey(dialog)}
          offersRename={dialog.name === 'replace-rename'}
          offersReplace={dialog.offersReplace ?? true}
          message={dialog.message}
          onAnswer={(answer) => {
            dialog.onAnswer?.(answer);
            close();
          }}
        />
      );
    case 'conflict':
      return (
        <ConflictDialog
          key={dialogKey(dialog)}
          firstName={dialog.conflict?.firstName ?? ''}
          clashCount={dialog.conflict?.clashCount ?? 1}
          offersReplace={dialog.offersReplace ?? true}
          onAnswer={(answer) => {
            dialog.onConflictAnswer?.(answer);
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
