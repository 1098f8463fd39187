import type { Grantee } from '@cabinet/protocol';
import { useMemo, useState } from 'react';
import { useGroupsQuery } from '../../../api/teams/groups-query.ts';
import { useUserGroupsMutation } from '../../../api/teams/user-groups-mutation.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { notifySuccess } from '../../../stores/notification-store.ts';
import { PeoplePicker, matchPeople } from '../../teams/on-demand.ts';

/**
 * The user screen's groups (administrators): the groups the user is a member of, changed by
 * picking groups by name, saved on their own (PUT /api/users/{id}/groups).
 */
export function UserGroupsCard({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const groups = useGroupsQuery();
  const save = useUserGroupsMutation();
  const [query, setQuery] = useState('');
  const [edited, setEdited] = useState<Grantee[] | undefined>();
  const all = useMemo(
    () => (groups.data ?? []).map((g) => ({ kind: 'group' as const, id: g.id, name: g.name })),
    [groups.data],
  );
  const current = useMemo(
    () =>
      (groups.data ?? [])
        .filter((g) => g.members.includes(userId))
        .map((g) => ({ kind: 'group' as const, id: g.id, name: g.name })),
    [groups.data, userId],
  );
  const chosen = edited ?? current;

  return (
    <form
      className="card"
      aria-labelledby="user-groups-title"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(
          { userId, groups: chosen.map((g) => g.id) },
          {
            onSuccess: () => {
              setEdited(undefined);
              notifySuccess(t('teams.userGroupsSaved'));
            },
          },
        );
      }}
    >
      <h2 id="user-groups-title" className="card__title">
        {t('teams.groups')}
      </h2>
      {groups.isPending ? (
        <p className="settings__help">{t('files.loading')}</p>
      ) : (
        <PeoplePicker
          label={t('teams.userGroups')}
          hint={chosen.length === 0 ? t('teams.noUserGroups') : undefined}
          chosen={chosen}
          onChange={setEdited}
          query={query}
          onQuery={setQuery}
          matches={matchPeople(all, query)}
        />
      )}
      <div className="card__actions">
        <button
          type="submit"
          className="button"
          disabled={save.isPending || groups.isPending || edited === undefined}
        >
          {t('teams.saveGroups')}
        </button>
      </div>
    </form>
  );
}
