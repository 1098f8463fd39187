import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { TwoFactorSetup } from '@cabinet/protocol';
import { ApiError } from '../../api/api-error.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { notifySuccess } from '../../stores/notification-store.ts';
import { QrCode } from './QrCode.tsx';
import {
  disableTwoFactor,
  enableTwoFactor,
  fetchTwoFactorStatus,
  startTwoFactorSetup,
} from './two-factor-api.ts';
import { WRONG_CODE } from './login-reasons.ts';
import './two-factor.css';

const STATUS_KEY = ['two-factor'] as const;

/** A refused code reads as such; anything else keeps the interface's sentence for the failure. */
function messageOf(error: unknown, t: (key: string) => string): string {
  if (error instanceof ApiError && error.reason === WRONG_CODE) return t('twoFactor.wrongCode');
  return error instanceof Error ? error.message : String(error);
}

/**
 * Two-factor sign-in of the signed-in user (docs/two-factor.md): set up with a QR code and a first
 * code, the recovery codes shown once, and turning it off with the password and a code.
 * `onEnabled` runs after the recovery codes were acknowledged (the enrol-only screen moves on).
 */
export function TwoFactorCard({ onEnabled }: { onEnabled?: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: STATUS_KEY, queryFn: fetchTwoFactorStatus });
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (task: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await task();
    } catch (cause) {
      setError(messageOf(cause, t));
    } finally {
      setBusy(false);
    }
  };

  const handleStart = () =>
    run(async () => {
      setSetup(await startTwoFactorSetup());
      setCode('');
    });

  const handleEnable = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const { recoveryCodes } = await enableTwoFactor(code.trim());
      setRecoveryCodes(recoveryCodes);
      setSetup(null);
      setCode('');
      notifySuccess(t('twoFactor.turnedOn'));
    });
  };

  const handleDone = async () => {
    setRecoveryCodes(null);
    await queryClient.invalidateQueries({ queryKey: STATUS_KEY });
    onEnabled?.();
  };

  const handleDisable = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await disableTwoFactor(password, code.trim());
      setPassword('');
      setCode('');
      notifySuccess(t('twoFactor.turnedOff'));
      await queryClient.invalidateQueries({ queryKey: STATUS_KEY });
    });
  };

  const errorLine = error && (
    <p className="field__error" role="alert">
      {error}
    </p>
  );
  const codeField = (label: string) => (
    <label className="field">
      <span className="field__label">{label}</span>
      <input
        className="input"
        name="one-time-code"
        autoComplete="one-time-code"
        inputMode={setup ? 'numeric' : 'text'}
        autoCapitalize="off"
        spellCheck={false}
        required
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
    </label>
  );

  let body;
  if (recoveryCodes) {
    body = (
      <>
        <h3 className="two-factor__subtitle">{t('twoFactor.recoveryTitle')}</h3>
        <p className="two-factor__help">{t('twoFactor.recoveryHelp')}</p>
        <ul className="two-factor__codes" aria-label={t('twoFactor.recoveryTitle')}>
          {recoveryCodes.map((c) => (
            <li key={c} dir="ltr">
              {c}
            </li>
          ))}
        </ul>
        <div className="card__actions">
          <button type="button" className="button" onClick={() => void handleDone()}>
            {t('twoFactor.done')}
          </button>
        </div>
      </>
    );
  } else if (setup) {
    body = (
      <form onSubmit={handleEnable} noValidate>
        <p className="two-factor__help">{t('twoFactor.scan')}</p>
        <QrCode value={setup.uri} label={t('twoFactor.qrLabel')} />
        <p className="two-factor__help">
          {t('twoFactor.secretKey')}{' '}
          <code className="two-factor__secret" dir="ltr">
            {setup.secret}
          </code>
        </p>
        {codeField(t('twoFactor.code'))}
        {errorLine}
        <div className="card__actions">
          <button type="submit" className="button" disabled={busy || !code.trim()}>
            {t('twoFactor.turnOn')}
          </button>
        </div>
      </form>
    );
  } else if (status.data?.enabled) {
    body = (
      <form onSubmit={handleDisable} noValidate>
        <p className="two-factor__help">
          {t('twoFactor.isOn')} {t('twoFactor.codesLeft', { left: status.data.recoveryCodesLeft })}
        </p>
        {status.data.required ? (
          <p className="two-factor__help">{t('twoFactor.required')}</p>
        ) : (
          <>
            <label className="field">
              <span className="field__label">{t('login.password')}</span>
              <input
                className="input"
                type="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            {codeField(t('twoFactor.codeOrRecovery'))}
            {errorLine}
            <div className="card__actions">
              <button
                type="submit"
                className="button button--secondary"
                disabled={busy || !password || !code.trim()}
              >
                {t('twoFactor.turnOff')}
              </button>
            </div>
          </>
        )}
      </form>
    );
  } else if (status.data) {
    body = (
      <>
        <p className="two-factor__help">
          {status.data.required ? t('twoFactor.required') : t('twoFactor.isOff')}
        </p>
        {errorLine}
        <div className="card__actions">
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => void handleStart()}
          >
            {t('twoFactor.setUp')}
          </button>
        </div>
      </>
    );
  } else {
    body = status.isError ? (
      <p className="field__error" role="alert">
        {status.error.message}
      </p>
    ) : (
      <p className="two-factor__help">{t('files.loading')}</p>
    );
  }

  return (
    <section className="card" aria-labelledby="two-factor-title">
      <h2 id="two-factor-title" className="card__title">
        {t('twoFactor.title')}
      </h2>
      {body}
    </section>
  );
}
