import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useUsersQuery } from '../../../api/users/users-query.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { ErrorPage } from '../../errors/index.ts';
import { errorPageCode } from '../../../api/api-error.ts';

/** Rows rendered at first and added each time the end of the table scrolls into view. */
const PAGE_ROWS = 100;

/**
 * /settings/users (administrators): username, admin flag, scope and an edit link per user. With
 * thousands of users the table renders a page of rows and grows as the user scrolls; the filter
 * narrows it by name as they type.
 */
export function UsersPage() {
  const { t } = useTranslation();
  const users = useUsersQuery();
  const [filter, setFilter] = useState('');
  const [shown, setShown] = useState(PAGE_ROWS);
  const deferredFilter = useDeferredValue(filter);
  const endRef = useRef<HTMLDivElement>(null);

  const matching = useMemo(() => {
    const needle = deferredFilter.trim().toLowerCase();
    const all = users.data ?? [];
    return needle ? all.filter((u) => u.username.toLowerCase().includes(needle)) : all;
  }, [users.data, deferredFilter]);

  const hasMore = shown < matching.length;
  useEffect(() => {
    const end = endRef.current;
    if (!end || !hasMore) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setShown((n) => n + PAGE_ROWS);
    });
    observer.observe(end);
    return () => observer.disconnect();
  }, [hasMore, shown]);

  if (users.isError) return <ErrorPage code={errorPageCode(users.error)} />;
  const rows = matching.slice(0, shown);
  return (
    <section className="settings__screen" aria-labelledby="users-title">
      <div className="settings__heading">
        <h1 id="users-title" className="settings__title">
          {t('settings.userManagement')}
        </h1>
        <Link to="/settings/users/new" className="button">
          {t('settings.newUserButton')}
        </Link>
      </div>
      <label className="field">
        <span className="field__label">{t('settings.filterUsers')}</span>
        <input
          type="search"
          className="input"
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value);
            setShown(PAGE_ROWS);
          }}
          autoComplete="off"
        />
      </label>
      <p className="settings__help" aria-live="polite">
        {users.isPending
          ? t('files.loading')
          : t('settings.usersCount', { count: matching.length })}
      </p>
      <div className="users-table__frame">
        <table className="users-table">
          <thead>
            <tr>
              <th scope="col">{t('settings.username')}</th>
              <th scope="col">{t('settings.admin')}</th>
              <th scope="col">{t('settings.scope')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('settings.edit')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((user) => (
              <tr key={user.id}>
                <td className="users-table__name">
                  <bdi>{user.username}</bdi>
                </td>
                <td>
                  {user.perm.admin ? (
                    <span className="users-table__badge">{t('settings.yes')}</span>
                  ) : (
                    <span className="visually-hidden">{t('settings.no')}</span>
                  )}
                </td>
                <td className="users-table__scope">{user.scope}</td>
                <td className="users-table__edit">
                  <Link
                    to={`/settings/users/${user.id}`}
                    className="button button--secondary button--small"
                    aria-label={t('settings.editUser', { name: user.username })}
                  >
                    {t('settings.edit')}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {hasMore && <div ref={endRef} className="users-table__more" aria-hidden="true" />}
      </div>
    </section>
  );
}
