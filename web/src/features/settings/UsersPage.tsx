import { useTranslation } from '../../i18n/use-translation.ts';

/** /settings/users (administrators): the user management screen. */
export function UsersPage() {
  const { t } = useTranslation();
  return (
    <section className="settings__screen" aria-labelledby="users-title">
      <h1 id="users-title" className="settings__title">
        {t('settings.userManagement')}
      </h1>
    </section>
  );
}
