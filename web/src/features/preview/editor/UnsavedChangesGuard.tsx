import { useEffect } from 'react';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { useBlocker } from '../../../app/history.ts';
import { Dialog } from '../../../components/Dialog.tsx';

/**
 * While `isDirty`, leaving asks first: a route change (close, breadcrumbs, sidebar, back button)
 * opens a confirm dialog, and closing or reloading the tab the browser's own prompt.
 */
export function UnsavedChangesGuard({ isDirty }: { isDirty: boolean }) {
  const { t } = useTranslation();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      isDirty && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!isDirty) return;
    const handleBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => window.removeEventListener('beforeunload', handleBeforeUnload);
  }, [isDirty]);

  if (blocker.state !== 'blocked') return null;
  return (
    <Dialog
      title={t('editor.unsavedTitle')}
      onClose={() => blocker.reset()}
      actions={
        <>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => blocker.reset()}
          >
            {t('editor.stay')}
          </button>
          <button type="button" className="button button--danger" onClick={() => blocker.proceed()}>
            {t('editor.leave')}
          </button>
        </>
      }
    >
      <p>{t('editor.unsavedMessage')}</p>
    </Dialog>
  );
}
