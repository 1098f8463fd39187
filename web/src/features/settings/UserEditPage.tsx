import { useParams } from 'react-router';
import { useTranslation } from '../../i18n/use-translation.ts';

/** /settings/users/{id} (administrators): edit a user; the literal id "new" creates one. */
export function UserEditPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const isNew = id === 'new';
  return (
    <section className="settings__screen" aria-labelledby="user-edit-title">
      <h1 id="user-edit-title" className="settings__title">
        {isNew ? t('settings.newUser') : t('settings.user')}
      </h1>
    </section>
  );
}
