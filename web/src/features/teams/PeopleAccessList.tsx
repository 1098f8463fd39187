import type { Grantee, PeopleShare } from '@cabinet/protocol';
import { X } from 'lucide-react';
import { usePeopleShareDeleteMutation } from '../../api/teams/people-share-delete-mutation.ts';
import { usePeopleShareSaveMutation } from '../../api/teams/people-share-save-mutation.ts';
import { formatDateTime } from '../../format/date-time.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { notifySuccess } from '../../stores/notification-store.ts';
import { canWrite, EDIT_ACCESS, VIEW_ONLY } from './access-text.ts';
import { GranteeName } from './PeoplePicker.tsx';

/** One person or group with access through one share. */
interface AccessRow {
  share: PeopleShare;
  grantee: Grantee;
}

/**
 * Who has access to an item through shares with people, one row per person or group: their
 * access (changed in place: view or edit) and a button that takes it away. Taking the last
 * grantee of a share away revokes the share.
 */
export function PeopleAccessList({
  shares,
  showPath,
}: {
  shares: PeopleShare[];
  showPath?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const save = usePeopleShareSaveMutation();
  const remove = usePeopleShareDeleteMutation();
  const rows: AccessRow[] = shares.flatMap((share) =>
    share.grantees.map((grantee) => ({ share, grantee })),
  );
  const write = (share: PeopleShare, grantees: Grantee[], access = share.access) =>
    save.mutate({
      id: share.id,
      share: {
        grantees: grantees.map(({ kind, id }) => ({ kind, id })),
        access,
        expire: share.expire,
      },
    });
  const revoke = ({ share, grantee }: AccessRow) => {
    const rest = share.grantees.filter((g) => g.kind !== grantee.kind || g.id !== grantee.id);
    const done = { onSuccess: () => notifySuccess(t('teams.accessRemoved')) };
    if (rest.length === 0) remove.mutate(share.id, done);
    else
      save.mutate(
        {
          id: share.id,
          share: {
            grantees: rest.map(({ kind, id }) => ({ kind, id })),
            access: share.access,
            expire: share.expire,
          },
        },
        done,
      );
  };

  if (rows.length === 0) return <p className="grant-list__empty">{t('teams.nobodyHasAccess')}</p>;
  return (
    <ul className="grant-list" aria-label={t('teams.whoHasAccess')}>
      {rows.map((row) => {
        const name = row.grantee.name ?? `#${row.grantee.id}`;
        const key = `${row.share.id}:${row.grantee.kind}:${row.grantee.id}`;
        return (
          <li key={key} className="grant-list__item">
            <div className="grant-list__text">
              <span className="grant-list__name">
                <GranteeName grantee={row.grantee} />
              </span>
              <span className="grant-list__meta">
                {showPath && <bdi>{row.share.path}</bdi>}
                {showPath && <bdi>{t('teams.sharedBy', { name: row.share.owner })}</bdi>}
                <span>
                  {row.share.expire === 0
                    ? t('share.permanent')
                    : t('share.expires', {
                        when: formatDateTime(new Date(row.share.expire * 1000), i18n.language),
                      })}
                </span>
              </span>
            </div>
            <div className="grant-list__actions">
              <select
                className="input"
                aria-label={t('teams.accessOf', { name })}
                value={canWrite(row.share.access) ? 'edit' : 'view'}
                disabled={save.isPending}
                onChange={(event) =>
                  write(
                    row.share,
                    row.share.grantees,
                    event.target.value === 'edit' ? EDIT_ACCESS : VIEW_ONLY,
                  )
                }
              >
                <option value="view">{t('teams.canView')}</option>
                <option value="edit">{t('teams.canEdit')}</option>
              </select>
              <button
                type="button"
                className="icon-button"
                aria-label={t('teams.removeAccess', { name })}
                title={t('teams.removeAccess', { name })}
                disabled={remove.isPending || save.isPending}
                onClick={() => revoke(row)}
              >
                <X size={20} aria-hidden="true" />
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
