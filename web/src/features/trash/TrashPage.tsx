import type { TrashItem } from '@cabinet/protocol';
import { ExternalLink, RotateCcw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useUsersQuery } from '../../api/users/users-query.ts';
import {
  isRestoreConflict,
  trashRawUrl,
  useTrashMutations,
  useTrashQuery,
  useTrashSettingsQuery,
  type TrashOwner,
} from '../../api/trash.ts';
import { formatDateTime } from '../../format/date-time.ts';
import { formatDays } from '../../format/duration.ts';
import { formatFileSize } from '../../format/file-size.ts';
import { isolateName } from '../../i18n/isolate-name.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { notifyFailure, notifySuccess } from '../../stores/notification-store.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { TrashConfirmDialog, TrashConflictDialog } from './TrashDialogs.tsx';
import { TrashSettingsCard } from './TrashSettingsCard.tsx';
import './trash.css';

/** The folder an item was deleted from, as shown: its owner-scope parent path. */
function folderOf(path: string): string {
  const index = path.lastIndexOf('/');
  return index <= 0 ? '/' : path.slice(0, index);
}

/** What the page asks before acting: delete one for good, empty it all, or a restore's clash. */
type Question =
  { kind: 'delete'; item: TrashItem } | { kind: 'empty' } | { kind: 'conflict'; item: TrashItem };

/**
 * /trash: deleted items (name, original folder, when, size) with Open, Restore and Delete for
 * good; Empty trash; administrators choose whose trash and set the trash's global settings
 * (docs/trash.md).
 */
export function TrashPage() {
  const { t, i18n } = useTranslation();
  const user = useCurrentUser();
  const isAdmin = user?.perm.admin === true;
  const [owner, setOwner] = useState<TrashOwner>(undefined);
  const query = useTrashQuery(owner);
  const settings = useTrashSettingsQuery();
  // Only administrators choose whose trash to see; others would get a 403.
  const users = useUsersQuery({ enabled: isAdmin });
  const { restore, remove, empty } = useTrashMutations();
  const [question, setQuestion] = useState<Question | null>(null);

  const doRestore = (item: TrashItem, onConflict?: 'replace' | 'keep-both') => {
    restore.mutate(
      { id: item.id, body: onConflict ? { onConflict } : {} },
      {
        onSuccess: (reply) => {
          setQuestion(null);
          notifySuccess(t('trash.restored', { path: isolateName(reply.path) }));
        },
        onError: (error) => {
          if (isRestoreConflict(error)) setQuestion({ kind: 'conflict', item });
          else {
            setQuestion(null);
            notifyFailure(error);
          }
        },
      },
    );
  };

  const doRemove = (item: TrashItem) =>
    remove.mutate(item.id, {
      onSuccess: () => notifySuccess(t('trash.deletedForGood')),
      onError: (error) => notifyFailure(error),
      onSettled: () => setQuestion(null),
    });

  const doEmpty = () =>
    empty.mutate(undefined, {
      onSuccess: () => notifySuccess(t('trash.emptied')),
      onError: (error) => notifyFailure(error),
      onSettled: () => setQuestion(null),
    });

  const items = query.data ?? [];
  const showOwner = owner !== undefined;
  return (
    <section className="trash" aria-labelledby="trash-title">
      <div className="trash__head">
        <h1 id="trash-title" className="trash__title">
          {t('trash.title')}
        </h1>
        {owner === undefined && items.length > 0 && user?.perm.delete && (
          <button
            type="button"
            className="button button--danger"
            onClick={() => setQuestion({ kind: 'empty' })}
          >
            {t('trash.emptyTrash')}
          </button>
        )}
      </div>
      {settings.data &&
        (settings.data.enabled ? (
          <p className="trash__note">
            {t('trash.keptFor', { days: formatDays(settings.data.retentionDays, i18n.language) })}
          </p>
        ) : (
          <p className="trash__note">{t('trash.off')}</p>
        ))}
      {isAdmin && (
        <label className="field trash__owner">
          <span className="field__label">{t('trash.whose')}</span>
          <select
            className="input"
            value={owner === undefined ? '' : String(owner)}
            onChange={(event) => {
              const value = event.target.value;
              setOwner(value === '' ? undefined : value === 'all' ? 'all' : Number(value));
            }}
          >
            <option value="">{t('trash.mine')}</option>
            <option value="all">{t('trash.everyone')}</option>
            {(users.data ?? [])
              .filter((other) => other.id !== user?.id)
              .map((other) => (
                <option key={other.id} value={String(other.id)}>
                  {other.username}
                </option>
              ))}
          </select>
        </label>
      )}
      {query.isError ? (
        <p role="alert">{t('trash.loadFailed')}</p>
      ) : !query.data ? (
        <p>{t('trash.loading')}</p>
      ) : items.length === 0 ? (
        <p className="trash__empty">{t('trash.empty')}</p>
      ) : (
        <ul className="trash__list" aria-labelledby="trash-title">
          {items.map((item) => (
            <li key={item.id} className="trash__item" data-testid="trash-item">
              <div className="trash__name">
                <bdi>{item.name}</bdi>
              </div>
              <dl className="trash__facts">
                <div>
                  <dt>{t('trash.folder')}</dt>
                  <dd>
                    <bdi>{folderOf(item.path)}</bdi>
                  </dd>
                </div>
                <div>
                  <dt>{t('trash.deleted')}</dt>
                  <dd>{formatDateTime(new Date(item.deletedAt), i18n.language)}</dd>
                </div>
                <div>
                  <dt>{t('trash.size')}</dt>
                  <dd>{formatFileSize(item.size, i18n.language)}</dd>
                </div>
                {showOwner && (
                  <div>
                    <dt>{t('trash.owner')}</dt>
                    <dd>
                      <bdi>{item.username}</bdi>
                    </dd>
                  </div>
                )}
              </dl>
              <div className="trash__actions">
                {!item.isDir && (
                  <a
                    className="button button--secondary button--small"
                    href={trashRawUrl(item.id, true)}
                    target="_blank"
                    rel="noreferrer"
                    aria-label={t('trash.openNamed', { name: isolateName(item.name) })}
                  >
                    <ExternalLink size={16} aria-hidden="true" />
                    {t('trash.open')}
                  </a>
                )}
                <button
                  type="button"
                  className="button button--small"
                  disabled={restore.isPending}
                  aria-label={t('trash.restoreNamed', { name: isolateName(item.name) })}
                  onClick={() => doRestore(item)}
                >
                  <RotateCcw size={16} aria-hidden="true" />
                  {t('trash.restore')}
                </button>
                <button
                  type="button"
                  className="button button--danger button--small"
                  aria-label={t('trash.deleteNamed', { name: isolateName(item.name) })}
                  onClick={() => setQuestion({ kind: 'delete', item })}
                >
                  <Trash2 size={16} aria-hidden="true" />
                  {t('trash.deleteForGood')}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {isAdmin && settings.data && <TrashSettingsCard settings={settings.data} />}
      {question?.kind === 'delete' && (
        <TrashConfirmDialog
          title={t('trash.deleteForGood')}
          text={t('trash.confirmDelete')}
          subject={question.item.name}
          confirm={t('trash.deleteForGood')}
          busy={remove.isPending}
          onConfirm={() => doRemove(question.item)}
          onClose={() => setQuestion(null)}
        />
      )}
      {question?.kind === 'empty' && (
        <TrashConfirmDialog
          title={t('trash.emptyTrash')}
          text={t('trash.confirmEmpty')}
          confirm={t('trash.emptyTrash')}
          busy={empty.isPending}
          onConfirm={doEmpty}
          onClose={() => setQuestion(null)}
        />
      )}
      {question?.kind === 'conflict' && (
        <TrashConflictDialog
          item={question.item}
          folder={folderOf(question.item.path)}
          busy={restore.isPending}
          onChoose={(choice) => doRestore(question.item, choice)}
          onClose={() => setQuestion(null)}
        />
      )}
    </section>
  );
}
