import { useState, type FormEvent } from 'react';
import type { AppPassword, AppPasswordCreated } from '@cabinet/protocol';
import {
  useAppPasswordCreateMutation,
  useAppPasswordRevokeMutation,
  useAppPasswordsQuery,
} from '../../api/app-passwords/app-passwords.ts';
import { baseURL } from '../../config/page-config.ts';
import { formatDateTime, formatRelativeTime } from '../../format/date-time.ts';
import { isolateName } from '../../i18n/isolate-name.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { notifyError, notifySuccess } from '../../stores/notification-store.ts';
import { copyText } from '../share/index.ts';
import './app-passwords.css';

/** The WebDAV address clients connect to (docs/webdav.md). */
const davUrl = () => `${window.location.origin}${baseURL}/dav/`;

/**
 * App passwords (docs/webdav.md): on the profile, the user's own, which they create (shown once,
 * with the WebDAV address) and revoke; on the user screen, an administrator sees and revokes a
 * user's. Revoking asks for a confirmation in the row itself.
 */
export function AppPasswordsCard({ userId, own }: { userId: number; own: boolean }) {
  const { t, i18n } = useTranslation();
  const list = useAppPasswordsQuery(userId, own);
  const create = useAppPasswordCreateMutation(userId);
  const revoke = useAppPasswordRevokeMutation(userId);
  const [name, setName] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  const [folder, setFolder] = useState('');
  const [created, setCreated] = useState<AppPasswordCreated | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);

  const when = (ms: number | null) =>
    ms === null ? (
      t('appPasswords.never')
    ) : (
      <time
        dateTime={new Date(ms).toISOString()}
        title={formatDateTime(new Date(ms), i18n.language)}
      >
        {formatRelativeTime(new Date(ms), i18n.language)}
      </time>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), readOnly, ...(folder.trim() && { folder: folder.trim() }) },
      {
        onSuccess: (result) => {
          setCreated(result);
          setName('');
          setReadOnly(false);
          setFolder('');
        },
      },
    );
  };

  const copy = async (text: string) => {
    try {
      await copyText(text);
      notifySuccess(t('appPasswords.copied'));
    } catch {
      notifyError(t('appPasswords.copyFailed'));
    }
  };

  const handleRevoke = (item: AppPassword) =>
    revoke.mutate(item.id, {
      onSuccess: () => {
        setConfirming(null);
        notifySuccess(t('appPasswords.revoked'));
      },
    });

  const items = list.data ?? [];
  return (
    <section className="card" aria-labelledby={`app-passwords-${userId}`}>
      <h2 id={`app-passwords-${userId}`} className="card__title">
        {t('appPasswords.title')}
      </h2>
      <p className="settings__help">{t('appPasswords.help')}</p>
      {list.isError && (
        <p className="field__error" role="alert">
          {list.error.message}
        </p>
      )}
      {list.isSuccess && items.length === 0 && (
        <p className="settings__help">{t('appPasswords.none')}</p>
      )}
      <ul className="app-passwords">
        {items.map((item) => (
          <li key={item.id} className="app-passwords__item">
            <div className="app-passwords__text">
              <span className="app-passwords__name">{isolateName(item.name)}</span>
              <span className="settings__help">
                {item.folder === '/'
                  ? t('appPasswords.wholeScope')
                  : t('appPasswords.folderOnly', { folder: isolateName(item.folder) })}
                {' · '}
                {item.readOnly ? t('appPasswords.readOnly') : t('appPasswords.readWrite')}
              </span>
              <span className="settings__help">
                {t('appPasswords.created')} {when(item.createdAt)} · {t('appPasswords.lastUsed')}{' '}
                {when(item.lastUsedAt)}
              </span>
            </div>
            {confirming === item.id ? (
              <div className="app-passwords__confirm" role="group">
                <span>{t('appPasswords.revokeQuestion', { name: isolateName(item.name) })}</span>
                <button
                  type="button"
                  className="button button--danger button--small"
                  disabled={revoke.isPending}
                  onClick={() => handleRevoke(item)}
                >
                  {t('appPasswords.revoke')}
                </button>
                <button
                  type="button"
                  className="button button--secondary button--small"
                  onClick={() => setConfirming(null)}
                >
                  {t('buttons.cancel')}
                </button>
              </div>
            ) : (
              <button
                type="button"
                className="button button--secondary button--small"
                aria-label={t('appPasswords.revokeNamed', { name: isolateName(item.name) })}
                onClick={() => setConfirming(item.id)}
              >
                {t('appPasswords.revoke')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {created && (
        <div className="app-passwords__created" role="status">
          <p>{t('appPasswords.shownOnce', { name: isolateName(created.name) })}</p>
          <div className="app-passwords__secret">
            <code data-testid="app-password-value">{created.password}</code>
            <button
              type="button"
              className="button button--secondary button--small"
              onClick={() => void copy(created.password)}
            >
              {t('appPasswords.copy')}
            </button>
          </div>
          <p className="settings__help">
            {t('appPasswords.davAddress')} <code>{davUrl()}</code>
          </p>
          <div className="card__actions">
            <button type="button" className="button" onClick={() => setCreated(null)}>
              {t('appPasswords.done')}
            </button>
          </div>
        </div>
      )}
      {own && (
        <form className="app-passwords__form" onSubmit={submit}>
          <label className="field">
            <span className="field__label">{t('appPasswords.name')}</span>
            <input
              className="input"
              value={name}
              maxLength={100}
              required
              onChange={(event) => setName(event.target.value)}
            />
          </label>
          <label className="field">
            <span className="field__label">{t('appPasswords.folder')}</span>
            <input
              className="input"
              value={folder}
              placeholder="/"
              onChange={(event) => setFolder(event.target.value)}
            />
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={readOnly}
              onChange={(event) => setReadOnly(event.target.checked)}
            />
            <span>{t('appPasswords.readOnly')}</span>
          </label>
          {create.isError && (
            <p className="field__error" role="alert">
              {create.error.message}
            </p>
          )}
          <div className="card__actions">
            <button type="submit" className="button" disabled={create.isPending || !name.trim()}>
              {t('appPasswords.create')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
