import { X } from 'lucide-react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useSelectionStore } from '../../stores/selection-store.ts';

/**
 * "N selected" with a button that clears the selection and leaves multiple-selection mode. The
 * live region stays in place so that changes are announced.
 */
export function SelectionBanner() {
  const { t } = useTranslation();
  const count = useSelectionStore((s) => s.items.length);
  const multiple = useSelectionStore((s) => s.multiple);
  const clear = useSelectionStore((s) => s.clear);
  const isShown = count > 0 || multiple;
  return (
    <div className="selection-banner" role="status" data-shown={isShown}>
      {isShown && (
        <>
          <span className="selection-banner__count">{t('files.selectedCount', { count })}</span>
          <button
            type="button"
            className="icon-button icon-button--small"
            aria-label={t('files.clearSelection')}
            title={t('files.clearSelection')}
            onClick={clear}
          >
            <X size={18} aria-hidden="true" />
          </button>
        </>
      )}
    </div>
  );
}
