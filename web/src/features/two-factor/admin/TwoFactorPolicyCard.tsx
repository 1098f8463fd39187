import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { TWO_FACTOR_POLICIES, type TwoFactorPolicy } from '@cabinet/protocol';
import { useTranslation } from '../../../i18n/use-translation.ts';
import { notifySuccess } from '../../../stores/notification-store.ts';
import { fetchTwoFactorPolicy, saveTwoFactorPolicy } from '../two-factor-api.ts';

const POLICY_KEY = ['two-factor', 'policy'] as const;

const LABEL_KEYS: Record<TwoFactorPolicy, string> = {
  off: 'twoFactor.policyOff',
  admins: 'twoFactor.policyAdmins',
  everyone: 'twoFactor.policyEveryone',
};

/**
 * Global settings: who must sign in with a code (docs/two-factor.md, "Administrators"). Saved on
 * its own route, not with the settings object, so it has its own Update button.
 */
export function TwoFactorPolicyCard() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const policy = useQuery({ queryKey: POLICY_KEY, queryFn: fetchTwoFactorPolicy });
  const [choice, setChoice] = useState<TwoFactorPolicy | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const current = choice ?? policy.data?.require;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !current) return;
    setBusy(true);
    setError(null);
    try {
      await saveTwoFactorPolicy(current);
      await queryClient.invalidateQueries({ queryKey: POLICY_KEY });
      setChoice(null);
      notifySuccess(t('settings.settingsUpdated'));
    } catch (cause) {
      setError(cause instanceof Error ? cause.message : String(cause));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="card"
      onSubmit={(e) => void handleSubmit(e)}
      aria-labelledby="global-two-factor-title"
    >
      <h2 id="global-two-factor-title" className="card__title">
        {t('twoFactor.title')}
      </h2>
      {current ? (
        <fieldset className="settings__group">
          <legend className="field__label">{t('twoFactor.policyLegend')}</legend>
          {TWO_FACTOR_POLICIES.map((value) => (
            <label key={value} className="checkbox">
              <input
                type="radio"
                name="two-factor-policy"
                value={value}
                checked={current === value}
                onChange={() => setChoice(value)}
              />
              {t(LABEL_KEYS[value])}
            </label>
          ))}
          <p className="settings__help">{t('twoFactor.policyHelp')}</p>
        </fieldset>
      ) : (
        <p className="settings__help" role="status">
          {policy.isError ? policy.error.message : t('files.loading')}
        </p>
      )}
      {error && (
        <p className="field__error" role="alert">
          {error}
        </p>
      )}
      <div className="card__actions">
        <button type="submit" className="button" disabled={busy || !current}>
          {t('buttons.update')}
        </button>
      </div>
    </form>
  );
}
