import { useTranslation } from '../../i18n/use-translation.ts';

/** /settings/global (administrators): the global settings cards are laid out in this screen. */
export function GlobalSettingsPage() {
  const { t } = useTranslation();
  return (
    <section className="settings__screen" aria-labelledby="global-settings-title">
      <h1 id="global-settings-title" className="settings__title">
        {t('settings.globalSettings')}
      </h1>
    </section>
  );
}
