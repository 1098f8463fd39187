import { CircleAlert, CircleCheck, Info, X } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';
import { pageConfig } from '../../config/page-config.ts';
import { ISSUES_URL } from '../../config/product.ts';
import { useNotificationStore, type Notification } from '../../stores/notification-store.ts';
import './notifications.css';

const ICONS = { success: CircleCheck, error: CircleAlert, info: Info } as const;

function Toast({ notification }: { notification: Notification }) {
  const { t } = useTranslation();
  const dismiss = useNotificationStore((s) => s.dismiss);
  const { id, kind, message, duration, canReport, progress } = notification;
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
      {progress && (
        <div className="toast__work">
          <div
            className="toast__work-bar"
            role="progressbar"
            aria-label={message}
            aria-valuemin={0}
            aria-valuemax={progress.total}
            aria-valuenow={progress.done}
            aria-valuetext={t('feedback.progress', progress)}
          >
            <div style={{ width: `${(100 * progress.done) / progress.total}%` }} />
          </div>
          <span className="toast__work-text">{t('feedback.progress', progress)}</span>
        </div>
      )}
      {kind === 'error' ? (
        <div className="toast__actions">
          {/* Only for failures that are not the user's doing, and never the main button. */}
          {canReport && !pageConfig.DisableExternal && (
            <a
              className="toast__report"
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

/** What counts as the control that caused a toast: something pressed, or a one-line field. */
const CONTROLS = 'button, a[href], input, select, summary, [role="button"], [role="menuitem"]';

/** Whether two boxes share any area. */
function overlaps(a: DOMRect, b: DOMRect): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * The bottom-right stack of toasts. A toast must never hide the control that caused it (a form's
 * button at the bottom right, a phone's bottom bar): when the stack would cover the focused
 * control and the top of the screen would not, it moves there until the toasts are gone.
 */
export function Notifications() {
  const { t } = useTranslation();
  const notifications = useNotificationStore((s) => s.notifications);
  const stackRef = useRef<HTMLElement>(null);
  const [placement, setPlacement] = useState<'bottom' | 'top'>('bottom');
  const hasToasts = notifications.length > 0;

  useLayoutEffect(() => {
    const stack = stackRef.current;
    if (!hasToasts || !stack) {
      setPlacement('bottom');
      return;
    }
    // Only a control the user pressed counts: a text area or editor with the caret is as big
    // as the page and would push the toasts onto the buttons above it.
    const control = document.activeElement;
    if (!(control instanceof HTMLElement) || !control.matches(CONTROLS)) return;
    if (stack.dataset.placement !== 'bottom') return;
    const box = control.getBoundingClientRect();
    const bottom = stack.getBoundingClientRect();
    // Where the stack would sit at the top (notifications.css): below the header.
    const headerHeight = parseFloat(
      getComputedStyle(document.documentElement).getPropertyValue('--header-height'),
    );
    const top = new DOMRect(bottom.x, (headerHeight || 0) + 8, bottom.width, bottom.height);
    if (overlaps(bottom, box) && !overlaps(top, box)) setPlacement('top');
  }, [notifications, hasToasts]);

  return (
    <section
      ref={stackRef}
      className="toasts"
      data-placement={placement}
      aria-label={t('notifications.region')}
    >
      {notifications.map((n) => (
        <Toast key={n.id} notification={n} />
      ))}
    </section>
  );
}
