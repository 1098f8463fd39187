import type { Grantee, Group } from '@cabinet/protocol';
import { useMemo, useState } from 'react';
import { ApiError } from '../../../api/api-error.ts';
import { useGroupSaveMutation } from '../../../api/teams/group-save-mutation.ts';
import { useUsersQuery } from '../../../api/users/users-query.ts';
import { Dialog } from '../../../components/Dialog.tsx';
import { useInitialFocus } from '../../../hooks/use-initial-focus.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { notifySuccess } from '../../../stores/notification-store.ts';
import { PeoplePicker, matchPeople } from '../../teams/on-demand.ts';

/** Group names are 1–64 characters (protocol/src/teams.ts). */
const NAME_MAX = 64;

/**
 * Create or edit a group: its name and its members, picked by typing part of a username. A taken
 * name is said on the name field.
 */
export function GroupDialog({ group, onClose }: { group?: Group; onClose: () => void }) {
  const { t } = useTranslation();
  const users = useUsersQuery();
  const save = useGroupSaveMutation();
  const nameRef = useInitialFocus<HTMLInputElement>();
  const [name, setName] = useState(group?.name ?? '');
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | undefined>();
  const people = useMemo(
    () => (users.data ?? []).map((u) => ({ kind: 'user' as const, id: u.id, name: u.username })),
    [users.data],
  );
  const byId = useMemo(() => new Map(people.map((p) => [p.id, p.name])), [people]);
  const [members, setMembers] = useState<Grantee[] | undefined>(undefined);
  // Until the users arrive the members are shown by id; their names fill in when they do.
  const chosen =
    members ??
    (group?.members ?? []).map((id) => ({ kind: 'user' as const, id, name: byId.get(id) }));

  const handleSubmit = () => {
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > NAME_MAX) {
      setError(t('teams.groupNameInvalid'));
      return;
    }
    setError(undefined);
    save.mutate(
      { id: group?.id, group: { name: trimmed, members: chosen.map((m) => m.id) } },
      {
        onSuccess: () => {
          notifySuccess(group ? t('teams.groupSaved') : t('teams.groupCreated'));
          onClose();
        },
        onError: (failure) =>
          setError(
            failure instanceof ApiError && failure.status === 409
              ? t('teams.groupNameTaken')
              : failure.message,
          ),
      },
    );
  };

  return (
    <Dialog
      title={group ? t('teams.editGroupTitle') : t('teams.newGroup')}
      onClose={onClose}
      onSubmit={handleSubmit}
      actions={
        <>
          <button type="button" className="button button--secondary" onClick={onClose}>
            {t('buttons.cancel')}
          </button>
          <button type="submit" className="button" disabled={save.isPending}>
            {t('settings.save')}
          </button>
        </>
      }
    >
      <div className="field">
        <label className="field__label" htmlFor="group-name">
          {t('teams.groupName')}
        </label>
        <input
          ref={nameRef}
          id="group-name"
          className="input"
          value={name}
          maxLength={NAME_MAX}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'group-name-error' : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        {error && (
          <p id="group-name-error" className="field__error" role="alert">
            {error}
          </p>
        )}
      </div>
      <PeoplePicker
        label={t('teams.members')}
        chosen={chosen}
        onChange={setMembers}
        query={query}
        onQuery={setQuery}
        matches={matchPeople(people, query)}
        isSearching={users.isPending}
      />
      {group?.source === 'oidc' && <p className="settings__help">{t('teams.oidcGroupHelp')}</p>}
    </Dialog>
  );
}
