import { CircleAlert, CircleCheck, Info, X } from 'lucide-react';
import { useEffect } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { pageConfig } from '../../config/page-config.ts';
import { ISSUES_URL } from '../../config/product.ts';
import { useNotificationStore, type Notification } from '../../stores/notification-store.ts';
import './notifications.css';

const ICONS = { success: CircleCheck, error: CircleAlert, info: Info } as const;

function Toast({ notification }: { notification: Notification }) {
  const { t } = useTranslation();
  const dismiss = useNotificationStore((s) => s.dismiss);
  const { id, kind, message, duration } = notification;
  const Icon = ICONS[kind];

  useEffect(() => {
    if (duration === null) return;
    const timer = setTimeout(() => dismiss(id), duration);
    return () => clearTimeout(timer);
  }, [id, duration, dismiss]);

  return (
    <div
      className="toast"
      data-kind={kind}
      role={kind === 'error' ? 'alert' : 'status'}
      aria-live={kind === 'error' ? 'assertive' : 'polite'}
    >
      <Icon className="toast__icon" size={20} aria-hidden="true" />
      <p className="toast__message">{message}</p>
      {kind === 'error' ? (
        <div className="toast__actions">
          {!pageConfig.DisableExternal && (
            <a
              className="button button--small"
              href={ISSUES_URL}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('notifications.reportIssue')}
            </a>
          )}
          <button
            type="button"
            className="button button--small button--secondary"
            onClick={() => dismiss(id)}
          >
            {t('notifications.close')}
          </button>
        </div>
      ) : (
        <button
          type="button"
          className="icon-button icon-button--small"
          aria-label={t('notifications.close')}
          onClick={() => dismiss(id)}
        >
          <X size={16} aria-hidden="true" />
        </button>
      )}
      {duration !== null && (
        <div
          className="toast__progress"
          style={{ animationDuration: `${duration}ms` }}
          aria-hidden="true"
        />
      )}
    </div>
  );
}

/** The bottom-right stack of toasts. */
export function Notifications() {
  const { t } = useTranslation();
  const notifications = useNotificationStore((s) => s.notifications);
  return (
    <section className="toasts" aria-label={t('notifications.region')}>
      {notifications.map((n) => (
        <Toast key={n.id} notification={n} />
      ))}
    </section>
  );
}
