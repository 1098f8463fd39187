import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useUserUpdateMutation } from '../../api/users/user-update-mutation.ts';
import { canLogout } from '../../config/page-config.ts';
import { LanguageSelect } from './LanguageSelect.tsx';
import { notifySuccess } from '../../stores/notification-store.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { placeError, type PlacedError } from './form-errors.ts';
import { SessionsCard } from './sessions/SessionsCard.tsx';
import { AppPasswordsCard } from '../app-passwords/index.ts';
import { TextField } from './TextField.tsx';
import { TwoFactorCard } from '../two-factor/on-demand.ts';

/** With the json method the server wants the current password before changing it. */
const needsCurrentPassword = canLogout;

/** Green when both are equal and filled, red when they differ, neutral when both are empty. */
function passwordState(password: string, confirmation: string): 'match' | 'mismatch' | undefined {
  if (!password && !confirmation) return undefined;
  return password === confirmation ? 'match' : 'mismatch';
}

/** Tags the password change's notices: its success clears its earlier failure. */
const PASSWORD_ACTION = 'profile:password';

/**
 * /settings/profile: hide-dotfiles and language, a password
 * change that is hidden when the user's password is locked, and the user's sessions.
 */
export function ProfileSettingsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const update = useUserUpdateMutation();
  const passwordUpdate = useUserUpdateMutation(PASSWORD_ACTION);
  const [hideDotfiles, setHideDotfiles] = useState(user?.hideDotfiles ?? false);
  const [locale, setLocale] = useState(user?.locale ?? '');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [error, setError] = useState<PlacedError | undefined>();
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
    // Nothing is sent unless both fields are equal and filled.
    if (!password || password !== confirmation) return;
    setError(undefined);
    passwordUpdate.mutate(
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
          notifySuccess(t('settings.passwordUpdated'), PASSWORD_ACTION);
        },
        onError: (failure) => setError(placeError(failure, t)),
      },
    );
  };

  const state = passwordState(password, confirmation);
  const errorOn = (field: PlacedError['field']) =>
    error && error.field === field ? error.message : undefined;
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
        <LanguageSelect value={locale} onChange={setLocale} />
        <div className="card__actions">
          <button type="submit" className="button" disabled={update.isPending}>
            {t('buttons.update')}
          </button>
        </div>
      </form>
      {!user.lockPassword && (
        <form
          className="card"
          onSubmit={handlePassword}
          aria-labelledby="profile-password-title"
          noValidate
        >
          <h2 id="profile-password-title" className="card__title">
            {t('settings.changePassword')}
          </h2>
          <TextField
            label={t('settings.newPassword')}
            type="password"
            autoComplete="new-password"
            state={state}
            value={password}
            onChange={setPassword}
            error={errorOn('password')}
          />
          <TextField
            label={t('settings.newPasswordConfirm')}
            type="password"
            autoComplete="new-password"
            state={state}
            value={confirmation}
            onChange={setConfirmation}
            error={state === 'mismatch' && confirmation ? t('login.passwordsDontMatch') : undefined}
          />
          {needsCurrentPassword && (
            <TextField
              label={t('settings.currentPassword')}
              type="password"
              autoComplete="current-password"
              value={currentPassword}
              onChange={setCurrentPassword}
              error={errorOn('currentPassword')}
            />
          )}
          {error && !error.field && (
            <p className="field__error" role="alert">
              {error.message}
            </p>
          )}
          <div className="card__actions">
            <button
              type="submit"
              className="button"
              disabled={passwordUpdate.isPending || state !== 'match'}
            >
              {t('buttons.update')}
            </button>
          </div>
        </form>
      )}
      {canLogout && <TwoFactorCard />}
      <SessionsCard userId={user.id} />
      <AppPasswordsCard userId={user.id} own />
    </div>
  );
}
