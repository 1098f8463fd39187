import { useTranslation } from '../../i18n/use-translation.ts';
import { Dialog } from '../../components/Dialog.tsx';

const SHORTCUTS = [
  ['help.click', 'help.clickAction'],
  ['help.ctrlClick', 'help.ctrlClickAction'],
  ['help.doubleClick', 'help.doubleClickAction'],
  ['help.delete', 'help.deleteAction'],
  ['help.esc', 'help.escAction'],
  ['help.f1', 'help.f1Action'],
  ['help.f2', 'help.f2Action'],
  ['help.ctrlF', 'help.ctrlFAction'],
  ['help.ctrlS', 'help.ctrlSAction'],
] as const;

/** The help panel: mouse and keyboard shortcuts of the file manager. */
export function HelpDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      title={t('help.title')}
      onClose={onClose}
      onSubmit={onClose}
      actions={
        <button type="submit" className="button" autoFocus>
          {t('buttons.ok')}
        </button>
      }
    >
      <dl className="shortcut-list">
        {SHORTCUTS.map(([key, action]) => (
          <div key={key} className="shortcut-list__row">
            <dt>
              <kbd>{t(key)}</kbd>
            </dt>
            <dd>{t(action)}</dd>
          </div>
        ))}
      </dl>
    </Dialog>
  );
}
