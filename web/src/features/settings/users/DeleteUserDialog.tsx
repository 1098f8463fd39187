import { Dialog } from '../../../components/Dialog.tsx';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { TextField } from '../TextField.tsx';

interface DeleteUserDialogProps {
  isPending: boolean;
  onConfirm: () => void;
  onClose: () => void;
  /**
   * With the json method the deletion needs the admin's own password: the dialog asks for it
   * itself, with its refusal ("required" or "not your password") next to the field.
   */
  password?: { value: string; onChange: (value: string) => void; error?: string };
}

/** "Are you sure you want to delete this user?" with Cancel and a red Delete. */
export function DeleteUserDialog({
  isPending,
  onConfirm,
  onClose,
  password,
}: DeleteUserDialogProps) {
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
      {password && (
        <TextField
          label={t('settings.yourPassword')}
          hint={t('settings.yourPasswordHelp')}
          type="password"
          autoComplete="current-password"
          value={password.value}
          onChange={password.onChange}
          error={password.error}
        />
      )}
    </Dialog>
  );
}
