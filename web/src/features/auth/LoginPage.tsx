import { lazy, Suspense, useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../i18n/use-translation.ts';
import { ApiError } from '../../api/api-error.ts';
import { requestSignup } from '../../api/auth-requests.ts';
import { logIn } from '../../auth/session.ts';
import { Logo } from '../../components/Logo.tsx';
import { hasLoginPage, pageConfig } from '../../config/page-config.ts';
import { useProductName } from '../../config/branding.ts';
import { useCurrentUser } from '../../stores/session-store.ts';
import { renderBotCheck, type BotCheck } from './recaptcha.ts';
import { safeRedirectTarget } from './redirect-target.ts';
import { SsoSignIn, useSsoHandoff } from '../sso/index.ts';
import './login.css';

const loadTwoFactor = () => import('../two-factor/on-demand.ts');
const LoginCodeField = lazy(() => loadTwoFactor().then((m) => ({ default: m.LoginCodeField })));

/** The message for a failed login or signup. */
function failureMessage(error: unknown, isSignup: boolean, t: (key: string) => string): string {
  if (error instanceof ApiError) {
    // With a login form, only the two-factor step answers 401 (docs/two-factor.md).
    if (error.status === 401) return t('twoFactor.wrongCode');
    if (isSignup && error.kind === 'conflict') return t('login.usernameTaken');
    if (error.kind === 'rate-limited') return t('login.tooManyAttempts');
    if (error.kind === 'network') return t('errors.network');
    // The password policy explains itself ("The password is too short: …").
    if (isSignup && error.kind === 'bad-request' && error.reason) return error.message;
  }
  return t('login.wrongCredentials');
}

/**
 * Sign-in form, with a signup mode (password confirmation) when signup is allowed and the bot-check
 * widget when it is enabled. Success goes to the redirect query (paths inside the app only) or
 * /files/. Without a login page (proxy, noauth) it logs in with empty credentials by itself.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const productName = useProductName();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirectTarget(params.get('redirect')) ?? '/files/';
  const [isSignup, setSignup] = useState(pageConfig.Signup && params.has('signup'));
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Shown once the server answered that the password was right but a two-factor code is needed.
  const [needsCode, setNeedsCode] = useState(false);
  const [otp, setOtp] = useState('');
  const [isBusy, setBusy] = useState(false);
  // Set while a login navigates away, so the already-logged-in redirect does not take over.
  const [isLeaving, setLeaving] = useState(false);
  const botCheckRef = useRef<HTMLDivElement>(null);
  const [botCheck, setBotCheck] = useState<BotCheck | null>(null);
  // Single sign-on (docs/sso.md): finishing one that came back from the provider, or its failure.
  const leaveForSso = useCallback(() => setLeaving(true), []);
  const sso = useSsoHandoff(leaveForSso, safeRedirectTarget);

  useEffect(() => {
    if (!pageConfig.ReCaptcha || !botCheckRef.current) return;
    let cancelled = false;
    renderBotCheck(botCheckRef.current).then(
      (widget) => !cancelled && setBotCheck(widget),
      (cause: unknown) => console.warn('Cabinet: bot-check unavailable', cause),
    );
    return () => {
      cancelled = true;
    };
  }, []);

  useEffect(() => {
    if (hasLoginPage || user) return;
    logIn('', '', '').then(
      () => navigate(target, { replace: true }),
      () => setError(t('login.wrongCredentials')),
    );
  }, [navigate, t, target, user]);

  // Someone already logged in has no business here (a successful submit navigates by itself).
  if (user && !isLeaving) return <Navigate to={hasLoginPage ? '/files/' : target} replace />;

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const recaptcha = pageConfig.ReCaptcha ? (botCheck?.response() ?? '') : '';
    if (pageConfig.ReCaptcha && !recaptcha) {
      setError(t('login.wrongCredentials'));
      return;
    }
    if (isSignup && password !== confirmation) {
      setError(t('login.passwordsDontMatch'));
      return;
    }
    setBusy(true);
    setLeaving(true);
    try {
      if (isSignup) await requestSignup({ username, password });
      await logIn(username, password, recaptcha, needsCode ? otp.trim() : '');
      // A session the administrator's policy limits to enrolling goes to the enrolment screen.
      const twoFactor = await loadTwoFactor()
        .then((m) => m.fetchTwoFactorStatus())
        .catch(() => null);
      await navigate(twoFactor?.enrolOnly ? '/two-factor' : target, { replace: true });
    } catch (cause) {
      setLeaving(false);
      if (cause instanceof ApiError && cause.status === 401 && !needsCode) {
        setNeedsCode(true);
        botCheck?.reset();
        setBusy(false);
        return;
      }
      setError(failureMessage(cause, isSignup, t));
      botCheck?.reset();
      setBusy(false);
    }
  };

  const toggleMode = () => {
    setSignup(!isSignup);
    setError(null);
    setConfirmation('');
  };

  return (
    <main className="login">
      <form className="login__card" onSubmit={(event) => void handleSubmit(event)} noValidate>
        <div className="login__brand">
          <Logo size={48} />
          <h1 className="login__name">{productName}</h1>
        </div>
        {hasLoginPage ? (
          <>
            {pageConfig.OidcProvider && (
              <SsoSignIn
                provider={pageConfig.OidcProvider}
                returnTo={target}
                busy={sso.busy}
                failure={sso.failure}
              />
            )}
            {error && (
              <p className="login__error" role="alert">
                {error}
              </p>
            )}
            <label className="field">
              <span className="field__label">{t('login.username')}</span>
              <input
                className="input"
                name="username"
                autoComplete="username"
                autoCapitalize="off"
                spellCheck={false}
                required
                autoFocus
                value={username}
                onChange={(e) => setUsername(e.target.value)}
              />
            </label>
            <label className="field">
              <span className="field__label">{t('login.password')}</span>
              <input
                className="input"
                type="password"
                name="password"
                autoComplete={isSignup ? 'new-password' : 'current-password'}
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            </label>
            {isSignup && (
              <label className="field">
                <span className="field__label">{t('login.passwordConfirm')}</span>
                <input
                  className="input"
                  type="password"
                  name="password-confirmation"
                  autoComplete="new-password"
                  required
                  value={confirmation}
                  onChange={(e) => setConfirmation(e.target.value)}
                />
              </label>
            )}
            {needsCode && (
              <Suspense fallback={null}>
                <LoginCodeField value={otp} onChange={setOtp} />
              </Suspense>
            )}
            {pageConfig.ReCaptcha && <div ref={botCheckRef} className="login__bot-check" />}
            <button type="submit" className="button button--block" disabled={isBusy}>
              {t(isSignup ? 'login.signup' : 'login.submit')}
            </button>
            {pageConfig.Signup && (
              <button type="button" className="link-button login__toggle" onClick={toggleMode}>
                {t(isSignup ? 'login.loginInstead' : 'login.createAnAccount')}
              </button>
            )}
          </>
        ) : (
          <p className="login__status" role={error ? 'alert' : 'status'}>
            {error ?? t('login.signingIn')}
          </p>
        )}
      </form>
    </main>
  );
}
