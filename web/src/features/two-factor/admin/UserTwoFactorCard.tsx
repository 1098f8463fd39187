import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Dialog } from '../../../components/Dialog.tsx';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { notifySuccess } from '../../../stores/notification-store.ts';
import { fetchUserTwoFactor, resetUserTwoFactor } from '../two-factor-api.ts';

/**
 * The user editor's two-factor card: whether the user signs in with a code, and a reset (after a
 * confirmation) for a user who lost their phone and recovery codes.
 */
export function UserTwoFactorCard({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = ['two-factor', 'user', userId];
  const status = useQuery({ queryKey: key, queryFn: () => fetchUserTwoFactor(userId) });
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const handleReset = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await resetUserTwoFactor(userId);
      setConfirming(false);
      notifySuccess(t('twoFactor.resetDone'));
      await queryClient.invalidateQueries({ queryKey: key });
    } catch (cause) {
      setConfirming(false);
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="user-two-factor-title">
      <h2 id="user-two-factor-title" className="card__title">
        {t('twoFactor.title')}
      </h2>
      <p className="settings__help" role="status">
        {status.data
          ? status.data.enabled
            ? t('twoFactor.userOn')
            : t('twoFactor.userOff')
          : status.isError
            ? status.error.message
            : t('files.loading')}
      </p>
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      {status.data?.enabled && (
        <div className="card__actions">
          <button
            type="button"
            className="button button--danger"
            onClick={() => setConfirming(true)}
          >
            {t('twoFactor.reset')}
          </button>
        </div>
      )}
      {confirming && (
        <Dialog
          title={t('twoFactor.resetTitle')}
          onClose={() => setConfirming(false)}
          onSubmit={() => void handleReset()}
          actions={
            <>
              <button
                type="button"
                className="button button--secondary"
                onClick={() => setConfirming(false)}
                autoFocus
              >
                {t('buttons.cancel')}
              </button>
              <button type="submit" className="button button--danger" disabled={busy}>
                {t('twoFactor.reset')}
              </button>
            </>
          }
        >
          <p>{t('twoFactor.resetMessage')}</p>
        </Dialog>
      )}
    </section>
  );
}
