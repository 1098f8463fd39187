import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { Dialog } from '../../components/Dialog.tsx';
import type { OpenDialog } from '../../stores/dialog-store.ts';
import { isSamePath, parentFolder } from '../../paths/file-paths.ts';
import { FolderPicker } from './FolderPicker.tsx';
import { NothingToActOn } from '../../components/NothingToActOn.tsx';
import { transferItems } from './transfer.ts';
import { useDialogTargets } from './use-dialog-targets.ts';
import { useInitialFocus } from '../../hooks/use-initial-focus.ts';
import './operations.css';

/**
 * Move and copy: a folder picker starting at the entries' folder chooses the
 * destination (the chosen subfolder, else the folder being browsed); the entries themselves are
 * not offered, since a folder cannot go into itself. Move is disabled while the
 * destination is where the entries already are; the transfer itself (clash prompt, requests,
 * navigation) goes on in transferItems.
 */
export function TransferDialog(props: {
  action: 'move' | 'copy';
  dialog: OpenDialog;
  onClose: () => void;
}) {
  const { action, dialog, onClose } = props;
  const { t } = useTranslation();
  const targets = useDialogTargets(dialog).filter((item) => item.path !== '/');
  const source = targets[0] ? parentFolder(targets[0].path) : '/';
  const [folder, setFolder] = useState(source);
  const [chosen, setChosen] = useState<string | null>(null);
  const [isPending, setPending] = useState(false);
  const pickerRef = useInitialFocus<HTMLDivElement>();
  const title = t(action === 'move' ? 'ops.moveTitle' : 'ops.copyTitle');
  if (targets.length === 0) return <NothingToActOn title={title} onClose={onClose} />;

  const destination = chosen ?? folder;
  const isDisabled = isPending || (action === 'move' && isSamePath(destination, source));

  const handleSubmit = () => {
    if (isDisabled) return;
    setPending(true);
    const items = targets.map((item) => ({ from: item.path, name: item.name }));
    void transferItems(action, items, destination).finally(() => setPending(false));
  };

  return (
    <Dialog
      title={title}
      onClose={onClose}
      onSubmit={handleSubmit}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button" disabled={isDisabled}>
            {t(action === 'move' ? 'ops.move' : 'ops.copy')}
          </button>
        </>
      }
    >
      <p>
        {targets.length === 1
          ? t(action === 'move' ? 'ops.moveOne' : 'ops.copyOne', { name: targets[0]!.name })
          : t(action === 'move' ? 'ops.moveMany' : 'ops.copyMany', { count: targets.length })}
      </p>
      <div
        ref={pickerRef}
        className="operation__picker"
        tabIndex={-1}
        onFocus={(event) => {
          // Focus given to the wrapper goes on to the list itself.
          if (event.target === event.currentTarget) {
            event.currentTarget.querySelector<HTMLElement>('[role="listbox"]')?.focus();
          }
        }}
      >
        <FolderPicker
          folder={folder}
          chosen={chosen}
          onChoose={setChosen}
          onBrowse={setFolder}
          excluded={targets.map((item) => item.path)}
          onConfirm={handleSubmit}
        />
      </div>
      <p className="operation__destination" aria-live="polite">
        {t('ops.destination', {
          folder: destination.endsWith('/') ? destination : `${destination}/`,
        })}
      </p>
    </Dialog>
  );
}
