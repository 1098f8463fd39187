import { useTranslation } from '../i18n/use-translation.ts';
import { Dialog } from './Dialog.tsx';

/** Said instead of a dialog's form when it was opened with nothing it can act on. */
export function NothingToActOn({ title, onClose }: { title: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={title}
      onClose={onClose}
      onSubmit={onClose}
      actions={
        <button type="submit" className="button">
          {t('buttons.ok')}
        </button>
      }
    >
      <p>{t('ops.nothingToActOn')}</p>
    </Dialog>
  );
}
