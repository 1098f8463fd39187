/**
 * The `redirect` query of the login page, if it is a path inside this app. Anything else ("//evil",
 * "https://…", "/\\evil") is ignored so that the login page cannot send users to another site.
 */
export function safeRedirectTarget(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return null;
  }
  return value;
}

/** The login URL that brings the user back to `path` afterwards. */
export function loginUrlFor(path: string): string {
  return `/login?redirect=${encodeURIComponent(path)}`;
}
