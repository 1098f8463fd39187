import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { OIDC_CODE_FRAGMENT, OIDC_ERROR_PARAM, OIDC_FAILURES } from '@cabinet/protocol';
import { ApiError } from '../../api/api-error.ts';
import { useSessionStore } from '../../stores/session-store.ts';
import { requestSsoExchange } from './sso-requests.ts';

/** Why a single sign-on failed: a code of the server's callback, or the app's own exchange. */
export type SsoFailure = (typeof OIDC_FAILURES)[number] | 'exchange';

function failureFromQuery(value: string | null): SsoFailure | null {
  if (value === null) return null;
  return (OIDC_FAILURES as readonly string[]).includes(value) ? (value as SsoFailure) : 'verify';
}

/**
 * The login page's end of a single sign-on (docs/sso.md): the server's callback sends the browser
 * to /login with a one-time code in the fragment, which is taken out of the address at once and
 * exchanged for the session's token; or with `?sso_error=` naming why it failed.
 * `beforeSignIn` runs just before the token is adopted, so the page does not redirect on its own;
 * `targetOf` turns the fragment's return path into a path of the app (or null).
 */
export function useSsoHandoff(
  beforeSignIn: () => void,
  targetOf: (raw: string | null) => string | null,
): {
  busy: boolean;
  failure: SsoFailure | null;
} {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const [exchangeFailed, setExchangeFailed] = useState(false);
  // The code is single-use: one exchange, however often the effect runs.
  const started = useRef(false);

  useEffect(() => {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    const code = fragment.get(OIDC_CODE_FRAGMENT);
    if (!code || started.current) return;
    started.current = true;
    // Out of the address bar and the history before anything else: the code is single-use.
    window.history.replaceState(
      window.history.state,
      '',
      window.location.pathname + window.location.search,
    );
    const target = targetOf(fragment.get('redirect'));
    setBusy(true);
    requestSsoExchange(code)
      .then(async (token) => {
        beforeSignIn();
        if (!useSessionStore.getState().setToken(token)) {
          throw new ApiError(500, 'The server sent an unreadable token', 'bad-reply');
        }
        await navigate(target && target !== '/' ? target : '/files/', { replace: true });
      })
      .catch((cause: unknown) => {
        console.warn('Cabinet: the single sign-on could not be finished', cause);
        setExchangeFailed(true);
        setBusy(false);
      });
  }, [navigate, beforeSignIn, targetOf]);

  const failure = exchangeFailed ? 'exchange' : failureFromQuery(params.get(OIDC_ERROR_PARAM));
  return { busy, failure };
}
