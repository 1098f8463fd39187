import type { Share } from '@cabinet/protocol';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { shareUrl } from '../../api/shares/public-share.ts';
import { useShareDeleteMutation } from '../../api/shares/share-delete-mutation.ts';
import { useSharesQuery } from '../../api/shares/share-queries.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { notifySuccess } from '../../stores/notification-store.ts';
import { routeFromScopePath } from '../../paths/file-paths.ts';
import { useExpiryText } from '../share/index.ts';
import './share-list.css';
import { PeopleSharesCard } from '../teams/on-demand.ts';

/**
 * /settings/shares: the user's links (every link, with its owner, for administrators) with
 * path, type, expiry and downloads; each can be deleted after a confirmation.
 */
export function ShareListPage() {
  const { t } = useTranslation();
  const isAdmin = useCurrentUser()?.perm.admin ?? false;
  const shares = useSharesQuery();
  return (
    <section className="settings__screen" aria-labelledby="shares-title">
      <h1 id="shares-title" className="settings__title">
        {t('share.manageTitle')}
      </h1>
      <div className="card share-list">
        {shares.isPending ? (
          <p className="share-list__empty">{t('share.loading')}</p>
        ) : shares.isError ? (
          <p className="share-list__empty" role="alert">
            {shares.error.message}
          </p>
        ) : shares.data.length === 0 ? (
          <p className="share-list__empty">{t('share.manageNone')}</p>
        ) : (
          <table className="share-list__table">
            <thead>
              <tr>
                <th scope="col">{t('share.managePath')}</th>
                <th scope="col">{t('share.manageType')}</th>
                <th scope="col">{t('share.manageExpiry')}</th>
                <th scope="col">{t('share.manageDownloads')}</th>
                {isAdmin && <th scope="col">{t('share.manageOwner')}</th>}
                <th scope="col">
                  <span className="visually-hidden">{t('share.deleteLink')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shares.data.map((share) => (
                <ShareRow key={share.hash} share={share} showOwner={isAdmin} />
              ))}
            </tbody>
          </table>
        )}
      </div>
      <PeopleSharesCard />
    </section>
  );
}

function ShareRow({ share, showOwner }: { share: Share; showOwner: boolean }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const expiry = useExpiryText();
  const remove = useShareDeleteMutation();
  const [isConfirming, setConfirming] = useState(false);
  const isOwn = share.userID === user?.id;
  const handleDelete = () =>
    remove.mutate(share.hash, { onSuccess: () => notifySuccess(t('share.deleted')) });
  return (
    <tr>
      <td className="share-list__path" data-label={t('share.managePath')}>
        {isOwn ? (
          <Link to={routeFromScopePath(share.path, share.isDir)}>
            <bdi>{share.path}</bdi>
          </Link>
        ) : (
          share.path
        )}
        <a className="share-list__url" href={shareUrl(share.hash)} target="_blank" rel="noreferrer">
          {shareUrl(share.hash)}
        </a>
      </td>
      <td data-label={t('share.manageType')}>
        {share.isRequest
          ? t('share.typeRequest')
          : share.isDir
            ? t('share.typeFolder')
            : t('share.typeFile')}
      </td>
      <td data-label={t('share.manageExpiry')}>{expiry(share)}</td>
      <td data-label={t('share.manageDownloads')}>
        {share.downloadLimit > 0
          ? t('share.countOfLimit', { count: share.downloads, limit: share.downloadLimit })
          : share.downloads}
        {share.downloadLimit > 0 && share.downloads >= share.downloadLimit && (
          <span className="share-list__used-up">{t('firstWeek.shareUsedUpBadge')}</span>
        )}
      </td>
      {showOwner && (
        <td data-label={t('share.manageOwner')}>
          <bdi>{share.username}</bdi>
        </td>
      )}
      <td className="share-list__actions">
        {isConfirming ? (
          <span className="share-list__confirm" role="group" aria-label={t('share.deleteLink')}>
            <span>{t('share.deleteConfirm', { path: share.path })}</span>
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => setConfirming(false)}
            >
              {t('buttons.cancel')}
            </button>
            <button
              type="button"
              className="button button--danger button--small"
              disabled={remove.isPending}
              onClick={handleDelete}
            >
              {t('ops.delete')}
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="icon-button share-list__delete"
            aria-label={`${t('share.deleteLink')}: ${share.path}`}
            title={t('share.deleteLink')}
            onClick={() => setConfirming(true)}
          >
            <Trash2 size={20} aria-hidden="true" />
          </button>
        )}
      </td>
    </tr>
  );
}
