import { FolderOpen } from 'lucide-react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useDialogStore } from '../../stores/dialog-store.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import './empty-folder.css';

/** An empty folder: one sentence, and the actions that fill it when the user may create. */
export function EmptyFolder() {
  const { t } = useTranslation();
  const canCreate = useCurrentUser()?.perm.create ?? false;
  const openDialog = useDialogStore((s) => s.open);
  return (
    <div className="empty-state">
      <FolderOpen size={48} className="empty-state__icon" aria-hidden="true" />
      <p className="empty-state__message">{t('files.empty')}</p>
      {canCreate && (
        <div className="empty-state__actions">
          <button
            type="button"
            className="button button--secondary"
            onClick={() => openDialog('newDir')}
          >
            {t('sidebar.newFolder')}
          </button>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => openDialog('newFile')}
          >
            {t('sidebar.newFile')}
          </button>
        </div>
      )}
    </div>
  );
}
