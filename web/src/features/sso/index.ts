// Single sign-on (docs/sso.md): the login page's button and hand-over, and the session's logout.
export { SsoSignIn } from './SsoSignIn.tsx';
export { useSsoHandoff, type SsoFailure } from './use-sso-handoff.ts';
export { requestSsoLogout } from './sso-requests.ts';
