import type { Grantee, TeamFolder } from '@cabinet/protocol';
import { useMemo, useState } from 'react';
import { useGroupsQuery } from '../../../api/teams/groups-query.ts';
import { useTeamFolderSaveMutation } from '../../../api/teams/team-folder-save-mutation.ts';
import { useUsersQuery } from '../../../api/users/users-query.ts';
import { Dialog } from '../../../components/Dialog.tsx';
import { useInitialFocus } from '../../../hooks/use-initial-focus.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { notifySuccess } from '../../../stores/notification-store.ts';
import { TextField } from '../TextField.tsx';
import { QuotaField } from '../users/QuotaField.tsx';
import { AccessFields, PeoplePicker, VIEW_ONLY, matchPeople } from '../../teams/on-demand.ts';

/** What the form checks before asking the server: a name of one path segment and a root path. */
function problemsOf(name: string, path: string) {
  const trimmed = name.trim();
  return {
    name: trimmed === '' || /[/\\]/.test(trimmed) || trimmed === '.' || trimmed === '..',
    path: !path.trim().startsWith('/'),
  };
}

/**
 * Create or edit a team folder: its name in grantees' views, the folder of the root it shows, who
 * gets it (users and groups by type-ahead), the access and an optional quota. The server's
 * refusal (a path that is no folder, a name taken) is said in the dialog.
 */
export function TeamFolderDialog({
  folder,
  onClose,
}: {
  folder?: TeamFolder;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const users = useUsersQuery();
  const groups = useGroupsQuery();
  const save = useTeamFolderSaveMutation();
  const nameRef = useInitialFocus<HTMLInputElement>();
  const [name, setName] = useState(folder?.name ?? '');
  const [path, setPath] = useState(folder?.path ?? '/');
  const [grantees, setGrantees] = useState<Grantee[]>(folder?.grantees ?? []);
  const [access, setAccess] = useState(folder?.access ?? VIEW_ONLY);
  const [quota, setQuota] = useState<number | null>(folder?.quota ?? 0);
  const [query, setQuery] = useState('');
  const [isChecked, setChecked] = useState(false);
  const [failure, setFailure] = useState<string | undefined>();
  const people = useMemo(
    () => [
      ...(groups.data ?? []).map((g) => ({ kind: 'group' as const, id: g.id, name: g.name })),
      ...(users.data ?? []).map((u) => ({ kind: 'user' as const, id: u.id, name: u.username })),
    ],
    [groups.data, users.data],
  );
  const problems = problemsOf(name, path);

  const handleSubmit = () => {
    setChecked(true);
    if (problems.name || problems.path || quota === null || save.isPending) return;
    setFailure(undefined);
    save.mutate(
      {
        id: folder?.id,
        folder: {
          name: name.trim(),
          path: path.trim(),
          grantees: grantees.map(({ kind, id }) => ({ kind, id })),
          access,
          quota,
        },
      },
      {
        onSuccess: () => {
          notifySuccess(folder ? t('teams.teamFolderSaved') : t('teams.teamFolderCreated'));
          onClose();
        },
        onError: (error) => setFailure(error.message),
      },
    );
  };

  return (
    <Dialog
      title={folder ? t('teams.editTeamFolderTitle') : t('teams.newTeamFolder')}
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
        <label className="field__label" htmlFor="team-folder-name">
          {t('teams.folderName')}
        </label>
        <span id="team-folder-name-hint" className="settings__help">
          {t('teams.folderNameHelp')}
        </span>
        <input
          ref={nameRef}
          id="team-folder-name"
          className="input"
          value={name}
          aria-invalid={isChecked && problems.name ? true : undefined}
          aria-describedby={`team-folder-name-hint${isChecked && problems.name ? ' team-folder-name-error' : ''}`}
          onChange={(event) => setName(event.target.value)}
        />
        {isChecked && problems.name && (
          <p id="team-folder-name-error" className="field__error" role="alert">
            {t('teams.folderNameInvalid')}
          </p>
        )}
      </div>
      <TextField
        label={t('teams.folderPath')}
        hint={t('teams.folderPathHelp')}
        value={path}
        onChange={setPath}
        error={isChecked && problems.path ? t('teams.folderPathInvalid') : undefined}
      />
      <PeoplePicker
        label={t('teams.grantees')}
        hint={t('teams.granteesHelp')}
        chosen={grantees}
        onChange={setGrantees}
        query={query}
        onQuery={setQuery}
        matches={matchPeople(people, query)}
        isSearching={users.isPending || groups.isPending}
      />
      <AccessFields access={access} onChange={setAccess} withShare />
      <QuotaField value={quota} onChange={setQuota} />
      {failure && (
        <p className="field__error" role="alert">
          {failure}
        </p>
      )}
    </Dialog>
  );
}
