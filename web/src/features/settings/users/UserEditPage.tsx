import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useSettingsQuery } from '../../../api/settings/settings-query.ts';
import { useUserQuery } from '../../../api/users/user-query.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { SessionsCard } from '../sessions/SessionsCard.tsx';
import { AppPasswordsCard } from '../../app-passwords/index.ts';
import { UserTwoFactorCard } from '../../two-factor/on-demand.ts';
import { pageConfig } from '../../../config/page-config.ts';
import { toFormValue } from './user-form-value.ts';
import { UserEditor } from './UserEditor.tsx';
import { UserGroupsCard } from '../groups/UserGroupsCard.tsx';

/** The numeric id of the route's tail, or undefined for "new" and anything unreadable. */
function userIdOf(tail: string | undefined): number | undefined {
  return tail && /^\d{1,15}$/.test(tail) ? Number(tail) : undefined;
}

/**
 * /settings/users/{id} (administrators): edit a user; the literal tail "new" creates one from
 * the settings' defaults. A user that cannot be fetched sends the admin to the new-user screen
 *.
 */
export function UserEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id: tail } = useParams();
  const id = userIdOf(tail);
  const isNew = id === undefined;
  const user = useUserQuery(id);
  const settings = useSettingsQuery();

  useEffect(() => {
    if (user.isError || (!isNew && tail === 'new') || (isNew && tail !== 'new')) {
      void navigate('/settings/users/new', { replace: true });
    }
  }, [user.isError, isNew, tail, navigate]);

  const source = isNew ? settings.data?.defaults : user.data;
  const title = isNew
    ? t('settings.newUser')
    : t('settings.userTitle', { name: user.data?.username ?? '' });
  return (
    <section className="settings__screen" aria-labelledby="user-edit-title">
      <h1 id="user-edit-title" className="settings__title">
        {title}
      </h1>
      {source ? (
        <UserEditor key={tail} id={id} initial={toFormValue(source)} />
      ) : (
        <p className="settings__help" role="status">
          {t('files.loading')}
        </p>
      )}
      {id !== undefined && user.data && <UserGroupsCard userId={id} />}
      {id !== undefined && user.data && <SessionsCard userId={id} />}
      {id !== undefined && user.data && <AppPasswordsCard userId={id} own={false} />}
      {id !== undefined && user.data && pageConfig.AuthMethod === 'json' && (
        <UserTwoFactorCard userId={id} />
      )}
    </section>
  );
}
