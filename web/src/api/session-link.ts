/**
 * What the API client needs of the logged-in session, handed in once at start-up
 * (`linkSession`) so that web/src/api imports no store: the stores and auth import the API, and
 * the API importing them back would be a loop.
 */
export interface SessionLink {
  /** The token sent as X-Auth; null when logged out. */
  token(): string | null;
  /** The logged-in user's id; null when logged out. */
  userId(): number | null;
  /** Adopts a renewed token; false when it cannot be read (the session then ends). */
  adopt(token: string): boolean;
  /** Ends the session (a token the server no longer honours). */
  end(): void;
}

/** Logged out until the app links the session store: calls go without a token. */
let link: SessionLink = { token: () => null, userId: () => null, adopt: () => false, end() {} };

/** Called once at start-up, before the first call. */
export function linkSession(session: SessionLink): void {
  link = session;
}

/** The session the client works with. */
export function session(): SessionLink {
  return link;
}
