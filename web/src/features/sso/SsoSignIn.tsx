import { useTranslation } from '../../i18n/use-translation.ts';
import { isolateName } from '../../i18n/isolate-name.ts';
import type { SsoFailure } from './use-sso-handoff.ts';
import { ssoLoginUrl } from './sso-requests.ts';
import './sso.css';

/** The message key of each failure (docs/sso.md lists what each means). */
const REASON_KEYS: Record<SsoFailure, string> = {
  state: 'sso.reasons.state',
  denied: 'sso.reasons.denied',
  verify: 'sso.reasons.verify',
  unavailable: 'sso.reasons.unavailable',
  username: 'sso.reasons.username',
  'no-account': 'sso.reasons.noAccount',
  account: 'sso.reasons.account',
  exchange: 'sso.reasons.exchange',
};

interface SsoSignInProps {
  /** The provider's name from the page configuration (the administrator's words). */
  provider: string;
  /** The app path to return to after signing in. */
  returnTo: string;
  busy: boolean;
  failure: SsoFailure | null;
}

/** "Sign in with <provider>" above the password form, and what went wrong the last time. */
export function SsoSignIn({ provider, returnTo, busy, failure }: SsoSignInProps) {
  const { t } = useTranslation();
  const name = isolateName(provider);
  return (
    <div className="sso">
      {failure && (
        <p className="login__error" role="alert">
          {t('sso.failed', { provider: name, reason: t(REASON_KEYS[failure]) })}
        </p>
      )}
      {busy ? (
        <p className="login__status" role="status">
          {t('sso.signingIn', { provider: name })}
        </p>
      ) : (
        <a className="button button--block sso__button" href={ssoLoginUrl(returnTo)}>
          {t('sso.signInWith', { provider: name })}
        </a>
      )}
      <p className="sso__or">
        <span>{t('sso.or')}</span>
      </p>
    </div>
  );
}
