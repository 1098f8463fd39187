import type { SharedWithMe } from '@cabinet/protocol';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorPageCode } from '../../api/api-error.ts';
import { useSharedLeaveMutation } from '../../api/teams/shared-leave-mutation.ts';
import { useSharedWithMeQuery } from '../../api/teams/shared-with-me-query.ts';
import { DangerConfirmDialog } from '../../components/DangerConfirmDialog.tsx';
import { formatDateTime } from '../../format/date-time.ts';
import { isolateName } from '../../i18n/isolate-name.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { routeFromScopePath } from '../../paths/file-paths.ts';
import { notifySuccess } from '../../stores/notification-store.ts';
import { ErrorPage } from '../errors/index.ts';
import { accessText } from './access-text.ts';
import { SharedMarkIcon } from './SharedMarkIcon.tsx';
import './teams.css';

/**
 * /shared: the team folders and items shared with the user, each opening where it is in their
 * view, with who shared it, the access and the expiry; "Leave" takes one out of their view. A
 * grant revoked meanwhile disappears (the `shared` event re-reads the list).
 */
export function SharedWithMePage() {
  const { t, i18n } = useTranslation();
  const shared = useSharedWithMeQuery();
  const leave = useSharedLeaveMutation();
  const [leaving, setLeaving] = useState<SharedWithMe | null>(null);

  if (shared.isError) return <ErrorPage code={errorPageCode(shared.error)} />;
  return (
    <section className="shared-page" aria-labelledby="shared-title">
      <h1 id="shared-title" className="shared-page__title">
        {t('teams.sharedWithMe')}
      </h1>
      <p className="shared-page__help">{t('teams.sharedWithMeHelp')}</p>
      <div className="card">
        {shared.isPending ? (
          <p className="grant-list__empty">{t('files.loading')}</p>
        ) : shared.data.length === 0 ? (
          <p className="grant-list__empty">{t('teams.nothingShared')}</p>
        ) : (
          <ul className="grant-list" aria-label={t('teams.sharedWithMe')}>
            {shared.data.map((item) => (
              <li key={`${item.kind}:${item.id}`} className="grant-list__item">
                <div className="grant-list__text">
                  <span className="grant-list__name">
                    <SharedMarkIcon mark={{ kind: item.kind, id: item.id, owner: item.owner }} />{' '}
                    <Link to={routeFromScopePath(item.path, item.isDir)}>
                      <bdi>{item.name}</bdi>
                    </Link>
                  </span>
                  <span className="grant-list__meta">
                    <span>
                      {item.kind === 'team'
                        ? t('teams.teamFolder')
                        : t('teams.sharedBy', { name: isolateName(item.owner ?? '') })}
                    </span>
                    <span>{accessText(item.access, t)}</span>
                    {item.expire > 0 && (
                      <span>
                        {t('share.expires', {
                          when: formatDateTime(new Date(item.expire * 1000), i18n.language),
                        })}
                      </span>
                    )}
                  </span>
                </div>
                <div className="grant-list__actions">
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    aria-label={t('teams.leaveItem', { name: item.name })}
                    onClick={() => setLeaving(item)}
                  >
                    {t('teams.leave')}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
      {leaving && (
        <DangerConfirmDialog
          title={t('teams.leaveTitle')}
          message={t('teams.leaveMessage', { name: isolateName(leaving.name) })}
          confirmLabel={t('teams.leave')}
          busy={leave.isPending}
          onClose={() => setLeaving(null)}
          onConfirm={() =>
            leave.mutate(leaving, {
              onSuccess: () => {
                notifySuccess(t('teams.left'));
                setLeaving(null);
              },
            })
          }
        />
      )}
    </section>
  );
}
