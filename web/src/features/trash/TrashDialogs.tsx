import type { TrashItem } from '@cabinet/protocol';
import { Dialog } from '../../components/Dialog.tsx';
import { useInitialFocus } from '../../hooks/use-initial-focus.ts';
import { isolateName } from '../../i18n/isolate-name.ts';
import { useTranslation } from '../../i18n/use-translation.ts';

/** Asks before something that cannot be undone (delete for good, empty the trash). */
export function TrashConfirmDialog(props: {
  title: string;
  text: string;
  subject?: string;
  confirm: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const confirmRef = useInitialFocus<HTMLButtonElement>();
  return (
    <Dialog
      title={props.title}
      onClose={props.onClose}
      onSubmit={props.onConfirm}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={props.onClose}>
            {t('buttons.cancel')}
          </button>
          <button
            ref={confirmRef}
            type="submit"
            className="button button--danger"
            disabled={props.busy}
          >
            {props.confirm}
          </button>
        </>
      }
    >
      <p>{props.text}</p>
      {props.subject !== undefined && (
        <p className="operation__subject">
          <bdi>{props.subject}</bdi>
        </p>
      )}
    </Dialog>
  );
}

/** A restore whose original place is taken: Replace, Keep both or Cancel. */
export function TrashConflictDialog(props: {
  item: TrashItem;
  folder: string;
  busy: boolean;
  onChoose: (choice: 'replace' | 'keep-both') => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const keepRef = useInitialFocus<HTMLButtonElement>();
  return (
    <Dialog
      title={t('trash.conflictTitle')}
      onClose={props.onClose}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={props.onClose}>
            {t('buttons.cancel')}
          </button>
          <button
            type="button"
            className="button button--danger"
            disabled={props.busy}
            onClick={() => props.onChoose('replace')}
          >
            {t('trash.replace')}
          </button>
          <button
            ref={keepRef}
            type="button"
            className="button"
            disabled={props.busy}
            onClick={() => props.onChoose('keep-both')}
          >
            {t('trash.keepBoth')}
          </button>
        </>
      }
    >
      <p>
        {t('trash.conflictText', {
          name: isolateName(props.item.name),
          folder: isolateName(props.folder),
        })}
      </p>
    </Dialog>
  );
}
