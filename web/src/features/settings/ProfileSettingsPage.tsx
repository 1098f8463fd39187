import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useUserUpdateMutation } from '../../api/users/user-update-mutation.ts';
import { canLogout } from '../../config/page-config.ts';
import { LOCALE_NAMES, LOCALES } from '../../i18n/locales.ts';
import { notifySuccess } from '../../stores/notification-store.ts';
import { useCurrentUser } from '../../stores/session-store.ts';

/** Green when both are equal and filled, red when they differ, neutral when both are empty. */
/** With the json method the server wants the current password before changing it. */
const needsCurrentPassword = canLogout;

function passwordState(password: string, confirmation: string): 'match' | 'mismatch' | undefined {
  if (!password && !confirmation) return undefined;
  return password === confirmation ? 'match' : 'mismatch';
}

/**
 * /settings/profile (SPEC.md, Profile settings screen): hide-dotfiles and language, and a password
 * change that is hidden when the user's password is locked.
 */
export function ProfileSettingsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const update = useUserUpdateMutation();
  const [hideDotfiles, setHideDotfiles] = useState(user?.hideDotfiles ?? false);
  const [locale, setLocale] = useState(user?.locale ?? '');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  if (!user) return null;

  const handlePreferences = (event: FormEvent) => {
    event.preventDefault();
    update.mutate(
      { id: user.id, which: ['locale', 'hideDotfiles'], data: { locale, hideDotfiles } },
      { onSuccess: () => notifySuccess(t('settings.settingsUpdated')) },
    );
  };

  const handlePassword = (event: FormEvent) => {
    event.preventDefault();
    // Nothing happens unless both fields are equal and filled (SPEC.md section 5).
    if (!password || password !== confirmation) return;
    update.mutate(
      {
        id: user.id,
        which: ['password'],
        data: { password },
        ...(needsCurrentPassword && { currentPassword }),
      },
      {
        onSuccess: () => {
          setPassword('');
          setConfirmation('');
          setCurrentPassword('');
          notifySuccess(t('settings.passwordUpdated'));
        },
      },
    );
  };

  const state = passwordState(password, confirmation);
  return (
    <div className="settings__screen">
      <h1 className="visually-hidden">{t('settings.profileSettings')}</h1>
      <form className="card" onSubmit={handlePreferences} aria-labelledby="profile-prefs-title">
        <h2 id="profile-prefs-title" className="card__title">
          {t('settings.profileSettings')}
        </h2>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={hideDotfiles}
            onChange={(e) => setHideDotfiles(e.target.checked)}
          />
          {t('settings.hideDotfiles')}
        </label>
        <label className="field">
          <span className="field__label">{t('settings.language')}</span>
          <select className="input" value={locale} onChange={(e) => setLocale(e.target.value)}>
            <option value="">{t('settings.browserLanguage')}</option>
            {LOCALES.map((code) => (
              <option key={code} value={code} lang={code}>
                {LOCALE_NAMES[code]}
              </option>
            ))}
          </select>
        </label>
        <div className="card__actions">
          <button type="submit" className="button" disabled={update.isPending}>
            {t('buttons.update')}
          </button>
        </div>
      </form>
      {!user.lockPassword && (
        <form className="card" onSubmit={handlePassword} aria-labelledby="profile-password-title">
          <h2 id="profile-password-title" className="card__title">
            {t('settings.changePassword')}
          </h2>
          <label className="field">
            <span className="field__label">{t('settings.newPassword')}</span>
            <input
              className="input"
              type="password"
              autoComplete="new-password"
              data-state={state}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </label>
          <label className="field">
            <span className="field__label">{t('settings.newPasswordConfirm')}</span>
            <input
              className="input"
              type="password"
              autoComplete="new-password"
              data-state={state}
              aria-invalid={state === 'mismatch'}
              value={confirmation}
              onChange={(e) => setConfirmation(e.target.value)}
            />
          </label>
          {needsCurrentPassword && (
            <label className="field">
              <span className="field__label">{t('settings.currentPassword')}</span>
              <input
                className="input"
                type="password"
                autoComplete="current-password"
                value={currentPassword}
                onChange={(e) => setCurrentPassword(e.target.value)}
              />
            </label>
          )}
          <div className="card__actions">
            <button type="submit" className="button" disabled={update.isPending}>
              {t('buttons.update')}
            </button>
          </div>
        </form>
      )}
    </div>
  );
}
