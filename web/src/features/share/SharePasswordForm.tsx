import { KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../i18n/use-translation.ts';

/** The password prompt of a protected link; `problem` says why the last try failed. */
export function SharePasswordForm({
  problem,
  isChecking,
  onSubmit,
}: {
  problem: string | null;
  isChecking: boolean;
  onSubmit: (password: string) => void;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (password) onSubmit(password);
  };
  return (
    <form
      className="card public-share__card"
      onSubmit={handleSubmit}
      aria-labelledby="share-pw-title"
    >
      <KeyRound className="public-share__state-icon" size={40} aria-hidden="true" />
      <h1 id="share-pw-title" className="card__title">
        {t('share.passwordTitle')}
      </h1>
      <p>{t('share.passwordPrompt')}</p>
      <label className="field">
        <span className="field__label">{t('share.passwordLabel')}</span>
        <input
          className="input"
          type="password"
          autoComplete="current-password"
          autoFocus
          value={password}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'share-pw-problem' : undefined}
          onChange={(event) => setPassword(event.target.value)}
        />
      </label>
      {problem && (
        <p id="share-pw-problem" className="field__error" role="alert">
          {problem}
        </p>
      )}
      <div className="card__actions">
        <button type="submit" className="button" disabled={!password || isChecking}>
          {t('share.open')}
        </button>
      </div>
    </form>
  );
}
