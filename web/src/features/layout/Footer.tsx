import { useTranslation } from '../../i18n/use-translation.ts';
import { pageConfig } from '../../config/page-config.ts';
import { PRODUCT_URL } from '../../config/product.ts';
import { useDialogStore } from '../../stores/dialog-store.ts';

/** Product link (plain text when external links are disabled), version and Help. */
export function Footer() {
  const { t } = useTranslation();
  const openDialog = useDialogStore((s) => s.open);
  return (
    <footer className="app-footer">
      {pageConfig.DisableExternal ? (
        <span>Cabinet</span>
      ) : (
        <a href={PRODUCT_URL} target="_blank" rel="noopener noreferrer">
          Cabinet
        </a>
      )}
      <span aria-hidden="true">·</span>
      <span>{t('layout.version', { version: pageConfig.Version })}</span>
      <span aria-hidden="true">·</span>
      <button type="button" className="link-button" onClick={() => openDialog('help')}>
        {t('layout.help')}
      </button>
    </footer>
  );
}
