import type { SessionInfo } from '@cabinet/protocol';
import { useSessionEndMutation } from '../../../api/users/session-end-mutation.ts';
import { useUserSessionsQuery } from '../../../api/users/user-sessions-query.ts';
import { formatDateTime, formatRelativeTime } from '../../../format/date-time.ts';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { notifySuccess } from '../../../stores/notification-store.ts';
import { describeClient } from './user-agent.ts';

/**
 * The Sessions card (profile and user screen): each active session with its browser, system,
 * address, sign-in and last use, the current one marked; any can be ended, or all others at once.
 * An ended session's token answers 401 on its next request (docs/api.md).
 */
export function SessionsCard({ userId }: { userId: number }) {
  const { t, i18n } = useTranslation();
  const sessions = useUserSessionsQuery(userId);
  const end = useSessionEndMutation();
  const list = sessions.data ?? [];
  const hasOthers = list.some((s) => !s.current);

  const handleEnd = (session?: SessionInfo) =>
    end.mutate(
      { userId, sessionId: session?.id },
      {
        onSuccess: () =>
          notifySuccess(t(session ? 'settings.sessionEnded' : 'settings.sessionsEnded')),
      },
    );

  const when = (ms: number) => (
    <time dateTime={new Date(ms).toISOString()} title={formatDateTime(new Date(ms), i18n.language)}>
      {formatRelativeTime(new Date(ms), i18n.language)}
    </time>
  );

  return (
    <section className="card" aria-labelledby={`sessions-${userId}`}>
      <h2 id={`sessions-${userId}`} className="card__title">
        {t('settings.sessions')}
      </h2>
      {sessions.isPending && <p className="settings__help">{t('files.loading')}</p>}
      {sessions.isError && (
        <p className="field__error" role="alert">
          {sessions.error.message}
        </p>
      )}
      {sessions.isSuccess && list.length === 0 && (
        <p className="settings__help">{t('settings.noSessions')}</p>
      )}
      <ul className="sessions">
        {list.map((session) => {
          const client = describeClient(session.userAgent);
          const name =
            [client.browser, client.system].filter(Boolean).join(' · ') ||
            t('settings.unknownClient');
          return (
            <li key={session.id} className="sessions__item">
              <div className="sessions__text">
                <span className="sessions__name">
                  {name}
                  {session.current && (
                    <span className="sessions__current">{t('settings.thisSession')}</span>
                  )}
                </span>
                <span className="settings__help">
                  {session.address && <>{session.address} · </>}
                  {t('settings.signedIn')} {when(session.createdAt)} · {t('settings.lastUsed')}{' '}
                  {when(session.lastUsedAt)}
                </span>
              </div>
              {!session.current && (
                <button
                  type="button"
                  className="button button--secondary button--small"
                  aria-label={t('settings.endSessionOf', { name })}
                  disabled={end.isPending}
                  onClick={() => handleEnd(session)}
                >
                  {t('settings.endSession')}
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {hasOthers && (
        <div className="card__actions">
          <button
            type="button"
            className="button button--secondary"
            disabled={end.isPending}
            onClick={() => handleEnd()}
          >
            {list.some((s) => s.current)
              ? t('settings.endOtherSessions')
              : t('settings.endAllSessions')}
          </button>
        </div>
      )}
    </section>
  );
}
