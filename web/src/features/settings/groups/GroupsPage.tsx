import type { Group } from '@cabinet/protocol';
import { useMemo, useState } from 'react';
import { errorPageCode } from '../../../api/api-error.ts';
import { useGroupDeleteMutation } from '../../../api/teams/group-delete-mutation.ts';
import { useGroupsQuery } from '../../../api/teams/groups-query.ts';
import { useUsersQuery } from '../../../api/users/users-query.ts';
import { DangerConfirmDialog } from '../../../components/DangerConfirmDialog.tsx';
import { isolateName } from '../../../i18n/isolate-name.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { notifySuccess } from '../../../stores/notification-store.ts';
import { ErrorPage } from '../../errors/index.ts';
import { GroupDialog } from './GroupDialog.tsx';

/** Which dialog is open: a new group, a group to edit, or a group to delete. */
type Open = { kind: 'new' } | { kind: 'edit' | 'delete'; group: Group } | null;

/**
 * /settings/groups (administrators): every group with its members; create, rename, change the
 * members, delete after a confirmation (docs/teams.md).
 */
export function GroupsPage() {
  const { t } = useTranslation();
  const groups = useGroupsQuery();
  const users = useUsersQuery();
  const remove = useGroupDeleteMutation();
  const [open, setOpen] = useState<Open>(null);
  const names = useMemo(
    () => new Map((users.data ?? []).map((u) => [u.id, u.username])),
    [users.data],
  );

  if (groups.isError) return <ErrorPage code={errorPageCode(groups.error)} />;
  return (
    <section className="settings__screen" aria-labelledby="groups-title">
      <div className="settings__heading">
        <h1 id="groups-title" className="settings__title">
          {t('teams.groups')}
        </h1>
        <button type="button" className="button" onClick={() => setOpen({ kind: 'new' })}>
          {t('teams.newGroup')}
        </button>
      </div>
      <p className="settings__help">{t('teams.groupsHelp')}</p>
      <div className="card">
        {groups.isPending ? (
          <p className="grant-list__empty">{t('files.loading')}</p>
        ) : groups.data.length === 0 ? (
          <p className="grant-list__empty">{t('teams.noGroups')}</p>
        ) : (
          <ul className="grant-list" aria-label={t('teams.groups')}>
            {groups.data.map((group) => (
              <li key={group.id} className="grant-list__item">
                <div className="grant-list__text">
                  <bdi className="grant-list__name">{group.name}</bdi>
                  <span className="grant-list__meta">
                    <span>{t('teams.memberCount', { count: group.members.length })}</span>
                    {group.source === 'oidc' && <span>{t('teams.fromSignIn')}</span>}
                  </span>
                  {group.members.length > 0 && (
                    <span className="grant-list__meta">
                      {group.members.slice(0, 12).map((id) => (
                        <bdi key={id}>{names.get(id) ?? `#${id}`}</bdi>
                      ))}
                      {group.members.length > 12 && <span>…</span>}
                    </span>
                  )}
                </div>
                <div className="grant-list__actions">
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    aria-label={t('teams.editGroup', { name: group.name })}
                    onClick={() => setOpen({ kind: 'edit', group })}
                  >
                    {t('settings.edit')}
                  </button>
                  <button
                    type="button"
                    className="button button--danger button--small"
                    aria-label={t('teams.deleteGroup', { name: group.name })}
                    onClick={() => setOpen({ kind: 'delete', group })}
                  >
                    {t('settings.delete')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      {open?.kind === 'new' && <GroupDialog onClose={() => setOpen(null)} />}
      {open?.kind === 'edit' && <GroupDialog group={open.group} onClose={() => setOpen(null)} />}
      {open?.kind === 'delete' && (
        <DangerConfirmDialog
          title={t('teams.deleteGroupTitle')}
          message={t('teams.deleteGroupMessage', { name: isolateName(open.group.name) })}
          confirmLabel={t('settings.delete')}
          busy={remove.isPending}
          onClose={() => setOpen(null)}
          onConfirm={() =>
            remove.mutate(open.group.id, {
              onSuccess: () => {
                notifySuccess(t('teams.groupDeleted'));
                setOpen(null);
              },
            })
          }
        />
      )}
    </section>
  );
}
