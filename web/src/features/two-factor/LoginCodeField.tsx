import { useTranslation } from '../../i18n/use-translation.ts';

/**
 * The login's code field, shown once the server answered that the password was right but a code
 * is needed; loaded then, so the first screen's bundle does not carry it.
 */
export function LoginCodeField({
  value,
  onChange,
}: {
  value: string;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <label className="field">
      <span className="field__label">{t('twoFactor.codeOrRecovery')}</span>
      <input
        className="input"
        name="one-time-code"
        autoComplete="one-time-code"
        inputMode="numeric"
        autoCapitalize="off"
        spellCheck={false}
        required
        autoFocus
        aria-describedby="login-code-help"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <span id="login-code-help" className="login__help">
        {t('twoFactor.loginHelp')}
      </span>
    </label>
  );
}
