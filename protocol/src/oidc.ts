import * as z from 'zod/mini';

/** POST /api/oidc/exchange: the one-time code a finished single sign-on left in the app's URL. */
export const OidcExchangeRequest = z.object({ code: z.string() });
export type OidcExchangeRequest = z.infer<typeof OidcExchangeRequest>;

/**
 * The answer of POST /api/oidc/logout: where the browser goes next, the provider's end-session
 * URL, or "" for Cabinet's own login page.
 */
export const OidcLogoutResponse = z.object({ redirect: z.string() });
export type OidcLogoutResponse = z.infer<typeof OidcLogoutResponse>;

/** Why a single sign-on failed, as the callback names it in the login page's `sso_error`. */
export const OIDC_FAILURES = [
  'state',
  'denied',
  'verify',
  'unavailable',
  'username',
  'no-account',
  'account',
] as const;
export type OidcFailureCode = (typeof OIDC_FAILURES)[number];

/** The login page's query parameter that names a failure, and the fragment key of the code. */
export const OIDC_ERROR_PARAM = 'sso_error';
export const OIDC_CODE_FRAGMENT = 'sso_code';
