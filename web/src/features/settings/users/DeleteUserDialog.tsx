import { Dialog } from '../../../components/Dialog.tsx';
import { useTranslation } from '../../../i18n/use-translation.ts';

interface DeleteUserDialogProps {
  isPending: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** "Are you sure you want to delete this user?" with Cancel and a red Delete. */
export function DeleteUserDialog({ isPending, onConfirm, onClose }: DeleteUserDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t('settings.deleteUserTitle')}
      onClose={onClose}
      onSubmit={onConfirm}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose} autoFocus>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button button--danger" disabled={isPending}>
            {t('settings.delete')}
          </button>
        </>
      }
    >
      <p>{t('settings.deleteUserMessage')}</p>
    </Dialog>
  );
}
