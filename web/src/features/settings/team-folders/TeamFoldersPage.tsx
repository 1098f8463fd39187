import type { TeamFolder } from '@cabinet/protocol';
import { useState } from 'react';
import { errorPageCode } from '../../../api/api-error.ts';
import { useTeamFolderDeleteMutation } from '../../../api/teams/team-folder-delete-mutation.ts';
import { useTeamFoldersQuery } from '../../../api/teams/team-folders-query.ts';
import { DangerConfirmDialog } from '../../../components/DangerConfirmDialog.tsx';
import { isolateName } from '../../../i18n/isolate-name.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { formatFileSize } from '../../../format/file-size.ts';
import { notifySuccess } from '../../../stores/notification-store.ts';
import { ErrorPage } from '../../errors/index.ts';
import { TeamFolderDialog } from './TeamFolderDialog.tsx';
import { GranteeName, accessText } from '../../teams/on-demand.ts';

type Open = { kind: 'new' } | { kind: 'edit' | 'delete'; folder: TeamFolder } | null;

/**
 * /settings/team-folders (administrators): folders of the root granted to users and groups, with
 * who has them and how; create, edit, delete (the grant ends, the files stay).
 */
export function TeamFoldersPage() {
  const { t, i18n } = useTranslation();
  const folders = useTeamFoldersQuery();
  const remove = useTeamFolderDeleteMutation();
  const [open, setOpen] = useState<Open>(null);

  if (folders.isError) return <ErrorPage code={errorPageCode(folders.error)} />;
  return (
    <section className="settings__screen" aria-labelledby="team-folders-title">
      <div className="settings__heading">
        <h1 id="team-folders-title" className="settings__title">
          {t('teams.teamFolders')}
        </h1>
        <button type="button" className="button" onClick={() => setOpen({ kind: 'new' })}>
          {t('teams.newTeamFolder')}
        </button>
      </div>
      <p className="settings__help">{t('teams.teamFoldersHelp')}</p>
      <div className="card">
        {folders.isPending ? (
          <p className="grant-list__empty">{t('files.loading')}</p>
        ) : folders.data.length === 0 ? (
          <p className="grant-list__empty">{t('teams.noTeamFolders')}</p>
        ) : (
          <ul className="grant-list" aria-label={t('teams.teamFolders')}>
            {folders.data.map((folder) => (
              <li key={folder.id} className="grant-list__item">
                <div className="grant-list__text">
                  <bdi className="grant-list__name">{folder.name}</bdi>
                  <span className="grant-list__meta">
                    <bdi className="bidi-ltr">{folder.path}</bdi>
                    <span>{accessText(folder.access, t)}</span>
                    {folder.access.share && <span>{t('teams.mayShare')}</span>}
                    {folder.quota > 0 && (
                      <span>
                        {t('quota.label')}: {formatFileSize(folder.quota, i18n.language)}
                      </span>
                    )}
                  </span>
                  <span className="grant-list__meta">
                    {folder.grantees.length === 0
                      ? t('teams.noGrantees')
                      : folder.grantees.map((g) => (
                          <GranteeName key={`${g.kind}:${g.id}`} grantee={g} />
                        ))}
                  </span>
                </div>
                <div className="grant-list__actions">
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    aria-label={t('teams.editTeamFolder', { name: folder.name })}
                    onClick={() => setOpen({ kind: 'edit', folder })}
                  >
                    {t('settings.edit')}
                  </button>
                  <button
                    type="button"
                    className="button button--danger button--small"
                    aria-label={t('teams.deleteTeamFolder', { name: folder.name })}
                    onClick={() => setOpen({ kind: 'delete', folder })}
                  >
                    {t('settings.delete')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      {open?.kind === 'new' && <TeamFolderDialog onClose={() => setOpen(null)} />}
      {open?.kind === 'edit' && (
        <TeamFolderDialog folder={open.folder} onClose={() => setOpen(null)} />
      )}
      {open?.kind === 'delete' && (
        <DangerConfirmDialog
          title={t('teams.deleteTeamFolderTitle')}
          message={t('teams.deleteTeamFolderMessage', { name: isolateName(open.folder.name) })}
          confirmLabel={t('settings.delete')}
          busy={remove.isPending}
          onClose={() => setOpen(null)}
          onConfirm={() =>
            remove.mutate(open.folder.id, {
              onSuccess: () => {
                notifySuccess(t('teams.teamFolderDeleted'));
                setOpen(null);
              },
            })
          }
        />
      )}
    </section>
  );
}
