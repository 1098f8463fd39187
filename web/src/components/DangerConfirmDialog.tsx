import type { ReactNode } from 'react';
import { useTranslation } from '../i18n/use-translation.ts';
import { Dialog } from './Dialog.tsx';

interface DangerConfirmDialogProps {
  title: string;
  /** What will happen, in a sentence (names isolated by the caller). */
  message: ReactNode;
  /** The destructive button's label ("Delete", "Leave"). */
  confirmLabel: string;
  /** The action is being sent: the destructive button waits. */
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * The question before an action that cannot be undone from where it is asked (delete a group,
 * revoke a team folder, leave a share): Cancel has the focus, so Enter alone never does it, and
 * the action is painted as the danger it is.
 */
export function DangerConfirmDialog(props: DangerConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={props.title}
      onClose={props.onClose}
      onSubmit={props.onConfirm}
      actions={
        <>
          <button
            type="button"
            className="button button--secondary"
            onClick={props.onClose}
            autoFocus
          >
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button button--danger" disabled={props.busy}>
            {props.confirmLabel}
          </button>
        </>
      }
    >
      <p>{props.message}</p>
    </Dialog>
  );
}
