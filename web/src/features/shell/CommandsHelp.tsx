import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useUserUpdateMutation } from '../../api/users/user-update-mutation.ts';
import { canLogout } from '../../config/page-config.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { useCurrentUser } from '../../stores/session-store.ts';

/** The server's sentence for a command the user may not run (commands.service.ts). */
const NOT_ALLOWED = /^"(.+)" is not one of the commands you may run\.$/;

/** The command a refusal line names, if it is the "not one of your commands" refusal. */
export function refusedCommandOf(line: string): string | undefined {
  return NOT_ALLOWED.exec(line)?.[1];
}

interface CommandsHelpProps {
  /** The command just refused as not allowed; undefined in the empty state. */
  refused: string | undefined;
  /** Called once the refused command has been added to the user's own allowed commands. */
  onAllowed: (command: string) => void;
}

/**
 * Where commands are allowed: each user's Commands field in Settings → Users. Said in the empty
 * panel of a user with no commands and under a "not one of your commands" refusal; an
 * administrator gets a link to their own user and, under a refusal, a button that adds the
 * command to their allowed commands (with their password, which the server asks for).
 */
export function CommandsHelp({ refused, onAllowed }: CommandsHelpProps) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const update = useUserUpdateMutation(undefined, true);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const passwordId = useId();
  if (!user) return null;
  const isAdmin = user.perm.admin;

  const allow = (event: FormEvent) => {
    event.preventDefault();
    if (refused === undefined || update.isPending) return;
    if (canLogout && password === '') {
      setError(t('firstWeek.currentPasswordRequired'));
      return;
    }
    setError(undefined);
    update.mutate(
      {
        id: user.id,
        which: ['commands'],
        data: { commands: [...user.commands, refused] },
        ...(canLogout ? { currentPassword: password } : {}),
      },
      {
        onSuccess: () => onAllowed(refused),
        onError: (failure) => setError(failure.message),
      },
    );
  };

  return (
    <div className="shell__help">
      <p className="shell__hint">
        {refused === undefined && <>{t('firstWeekAdmin.noCommandsYet')} </>}
        {t('firstWeekAdmin.whereAllowed')}{' '}
        {isAdmin ? (
          <Link to={`/settings/users/${user.id}`}>{t('firstWeekAdmin.openMyUser')}</Link>
        ) : (
          t('firstWeekAdmin.askAdmin')
        )}
      </p>
      {isAdmin && refused !== undefined && (
        <form className="shell__allow" onSubmit={allow} noValidate>
          {canLogout && (
            <>
              <label htmlFor={passwordId}>{t('settings.yourPassword')}</label>
              <input
                id={passwordId}
                className="shell__input"
                type="password"
                autoComplete="current-password"
                value={password}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${passwordId}-error` : undefined}
                onChange={(e) => setPassword(e.target.value)}
              />
            </>
          )}
          <button type="submit" className="button" disabled={update.isPending}>
            {t('firstWeekAdmin.allowCommand', { command: refused })}
          </button>
          {error && (
            <p id={`${passwordId}-error`} className="shell__line--error" role="alert">
              {error}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
