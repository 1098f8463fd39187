import { useTranslation } from '../../i18n/use-translation.ts';
import { Dialog } from '../../components/Dialog.tsx';

/** The error and success dialogs: a message and OK; closing clears the message. */
export function MessageDialog(props: {
  kind: 'error' | 'success';
  message: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t(props.kind === 'error' ? 'dialogs.errorTitle' : 'dialogs.successTitle')}
      onClose={props.onClose}
      onSubmit={props.onClose}
      actions={
        <button type="submit" className="button" autoFocus>
          {t('buttons.ok')}
        </button>
      }
    >
      <p>{props.message}</p>
    </Dialog>
  );
}
